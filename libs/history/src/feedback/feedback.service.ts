import { Inject, Injectable } from '@nestjs/common';
import { VerityError } from '@verity/common';
import { HISTORY_CONFIG, type HistoryConfig } from '@verity/config';
import { HISTORY_VALUES, type FeedbackOutcome, type FeedbackResult } from '@verity/contracts';
import { VerifyCallRepository } from '../db/verify-call.repository';
import { VerifyFeedbackRepository } from '../db/verify-feedback.repository';
import { HISTORY_POLICY, HISTORY_STORE } from '../history.tokens';
import type {
  CallValues,
  HistoryStore,
  HistoryStorePolicy,
  ReportChange,
} from '../store/history-store.port';
import { decayed } from '../store/report-weight';
import {
  ValueKeys,
  recordedInputs,
  scopeId,
  valueTexts,
  type CallInputs,
  type HistoryScope,
} from '../values/value-keys';

/**
 * POST /v1/feedback (docs/history.md, "Reports"): records an outcome in verify_feedback and adds
 * its weight to the values in the history store, in one transaction, so a failed store call
 * leaves nothing recorded and the client's retry counts once. Reporting a call again with the
 * same outcome changes nothing; with the other outcome it takes the first report's weight back.
 */
@Injectable()
export class FeedbackService {
  constructor(
    @Inject(HISTORY_STORE) private readonly store: HistoryStore,
    @Inject(HISTORY_POLICY) private readonly policy: HistoryStorePolicy,
    @Inject(HISTORY_CONFIG) private readonly config: HistoryConfig,
    private readonly keys: ValueKeys,
    private readonly calls: VerifyCallRepository,
    private readonly reports: VerifyFeedbackRepository,
  ) {}

  /** Reports how the scope's verify call `requestId` turned out; not_found for any other id. */
  async reportCall(
    scope: HistoryScope,
    requestId: string,
    outcome: FeedbackOutcome,
    at = Date.now(),
  ): Promise<FeedbackResult> {
    const values =
      (await this.store.recentCall(scopeId(scope), requestId)) ??
      (await this.calls.valuesOf(scope, requestId));
    if (values === null) {
      throw new VerityError(
        'not_found',
        `no verify call with request_id ${requestId} in this account and key mode (calls are kept ${this.config.HISTORY_RETENTION_DAYS} days)`,
      );
    }
    return this.apply(scope, requestId, values, outcome, at);
  }

  /** Reports an outcome of values (email, phone, IP address) seen with no particular call. */
  async reportValues(
    scope: HistoryScope,
    inputs: CallInputs,
    outcome: FeedbackOutcome,
    at = Date.now(),
  ): Promise<FeedbackResult> {
    const texts = valueTexts(recordedInputs(scope, inputs));
    if (Object.keys(texts).length === 0) {
      throw new VerityError(
        'validation_error',
        "nothing to report: a test key's magic inputs keep no history (docs/test-mode.md)",
      );
    }
    return this.apply(scope, null, this.keys.of(scope, texts), outcome, at);
  }

  private async apply(
    scope: HistoryScope,
    requestId: string | null,
    values: CallValues,
    outcome: FeedbackOutcome,
    at: number,
  ): Promise<FeedbackResult> {
    const kinds = HISTORY_VALUES.filter((kind) => values[kind] !== undefined);
    await this.reports.transaction(async (manager) => {
      const previous = await this.reports.record(
        { scope, requestId, outcome, values, at },
        manager,
      );
      if (previous?.outcome === outcome || kinds.length === 0) return;
      const change: ReportChange = { fraud: 0, legitimate: 0 };
      change[outcome] += 1;
      if (previous) {
        change[previous.outcome] -= decayed(1, previous.reportedAt, at, this.policy.halfLifeMs);
      }
      const keys = kinds.map((kind) => values[kind]!);
      await this.store.report(scopeId(scope), keys, change, at);
    });
    return { outcome, request_id: requestId, values: kinds, credits_used: 0 };
  }
}
