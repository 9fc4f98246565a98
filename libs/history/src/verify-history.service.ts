import { Inject, Injectable } from '@nestjs/common';
import { HISTORY_VALUES, type VerifyHistoryView } from '@verity/contracts';
import type { FraudHistory, FraudScore, ValueHistory } from '@verity/validation';
import { CallLog } from './calls/call-log';
import { HISTORY_POLICY, HISTORY_STORE } from './history.tokens';
import type {
  CallValues,
  HistoryStore,
  HistoryStorePolicy,
  StoredValue,
} from './store/history-store.port';
import { decayed } from './store/report-weight';
import { observedValues } from './values/observed-values';
import {
  ValueKeys,
  recordedInputs,
  scopeId,
  valueTexts,
  type CallInputs,
  type HistoryScope,
} from './values/value-keys';

/** A verify call as its history saw it. */
export interface ObservedCall {
  requestId: string;
  scope: HistoryScope;
  at: number;
  values: CallValues;
  /** What the fraud model reads. */
  history: FraudHistory;
}

/**
 * The per-call part of the account's history (docs/history.md): keys the call's values, records
 * them in the store and reads their history in one store call, and hands the scored call to the
 * call log. No database statement on this path.
 */
@Injectable()
export class VerifyHistory {
  constructor(
    @Inject(HISTORY_STORE) private readonly store: HistoryStore,
    @Inject(HISTORY_POLICY) private readonly policy: HistoryStorePolicy,
    private readonly keys: ValueKeys,
    private readonly log: CallLog,
  ) {}

  /** Records the call's values at `at` and answers their history, this call included. */
  async observe(
    scope: HistoryScope,
    inputs: CallInputs,
    requestId: string,
    at: number,
  ): Promise<ObservedCall> {
    const values = this.keys.of(scope, valueTexts(recordedInputs(scope, inputs)));
    const { kinds, observed } = observedValues(values);
    const stored = await this.store.observe(scopeId(scope), at, observed, { requestId, values });
    const history: FraudHistory = {};
    kinds.forEach((kind, i) => (history[kind] = this.valueHistory(stored[i], at)));
    return { requestId, scope, at, values, history };
  }

  /** Queues the scored call for verify_calls, where its request_id can be reported until the retention ends. */
  record(call: ObservedCall, score: FraudScore): void {
    const risks: string[] = [];
    const credits: string[] = [];
    for (const reason of score.reasons) {
      if (reason.points > 0) risks.push(reason.code);
      else if (reason.points < 0) credits.push(reason.code);
    }
    this.log.add({
      requestId: call.requestId,
      scope: call.scope,
      at: call.at,
      values: call.values,
      fraudScore: score.fraud_score,
      riskReasons: risks,
      creditReasons: credits,
    });
  }

  private valueHistory(stored: StoredValue, at: number): ValueHistory {
    const { halfLifeMs } = this.policy;
    return {
      linked: stored.linked,
      firstSeenAgoMs: Math.max(0, at - stored.first),
      calls: stored.calls,
      reported: {
        fraud: decayed(stored.fraud, stored.reportedAt, at, halfLifeMs),
        legitimate: decayed(stored.legitimate, stored.reportedAt, at, halfLifeMs),
      },
    };
  }
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** The `history` of an explained verify answer: the figures behind the history rules. */
export function historyView(call: ObservedCall): VerifyHistoryView {
  const view: VerifyHistoryView = {};
  for (const kind of HISTORY_VALUES) {
    const value = call.history[kind];
    if (value === undefined) continue;
    view[kind] = {
      linked: value.linked && {
        '1h': value.linked.h1,
        '24h': value.linked.h24,
        '30d': value.linked.d30,
      },
      first_seen: new Date(call.at - value.firstSeenAgoMs).toISOString(),
      calls: value.calls,
      reported: {
        fraud: round3(value.reported.fraud),
        legitimate: round3(value.reported.legitimate),
      },
    };
  }
  return view;
}
