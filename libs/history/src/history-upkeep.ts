import {
  Inject,
  Injectable,
  Optional,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { HISTORY_CONFIG, type HistoryConfig } from '@verity/config';
import { LOGGER } from '@verity/platform';
import { CallLog } from './calls/call-log';
import { VerifyCallRepository } from './db/verify-call.repository';
import { VerifyFeedbackRepository, type ReportWeightRow } from './db/verify-feedback.repository';
import { retentionStart } from './history-policy';
import { HISTORY_POLICY, HISTORY_STORE } from './history.tokens';
import type { HistoryStore, HistoryStorePolicy } from './store/history-store.port';
import { observedValues } from './values/observed-values';
import { scopeId } from './values/value-keys';

/** How often expired calls and reports are deleted. */
const SWEEP_EVERY_MS = 3_600_000;
/** The first sweep waits this long after boot, off the start-up path. */
const FIRST_SWEEP_MS = 60_000;

/**
 * The history's life around the calls (docs/history.md, "Retention", "Restarts"): at boot an
 * in-process store gets the recent calls of verify_calls replayed into it, and the report
 * weights come back from verify_feedback into store values that lack them (all of them after
 * an embedded restart, those lost by a Redis that lost its data); every hour calls and
 * reports older than the retention are deleted; at shutdown the call log writes what it holds.
 */
@Injectable()
export class HistoryUpkeep implements OnModuleInit, OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;

  constructor(
    @Inject(HISTORY_STORE) private readonly store: HistoryStore,
    @Inject(HISTORY_POLICY) private readonly policy: HistoryStorePolicy,
    @Inject(HISTORY_CONFIG) private readonly config: HistoryConfig,
    private readonly calls: VerifyCallRepository,
    private readonly reports: VerifyFeedbackRepository,
    private readonly log: CallLog,
    @Optional() @Inject(LOGGER) private readonly logger: Logger | null,
  ) {}

  /**
   * Before the first call is scored: replays the recent calls into a store that starts empty
   * (velocity, first sightings), then restores report weights.
   */
  async onModuleInit(): Promise<void> {
    const now = Date.now();
    if (!this.store.survivesRestart) await this.replayCalls(now);
    const rows = await this.reports.reportWeights(
      now,
      this.policy.halfLifeMs,
      retentionStart(this.config, now),
    );
    const byScope = new Map<string, ReportWeightRow[]>();
    for (const row of rows) {
      const scope = scopeId(row);
      const held = byScope.get(scope);
      if (held) held.push(row);
      else byScope.set(scope, [row]);
    }
    for (const [scope, states] of byScope) await this.store.restore(scope, states, now);
  }

  /**
   * Feeds the store the calls of the retention period, oldest first, as they were observed: at
   * most a quarter of HISTORY_MEMORY_MAX_ENTRIES calls (four values each), the newest.
   */
  private async replayCalls(now: number): Promise<void> {
    const started = Date.now();
    const limit = Math.max(1, Math.floor(this.config.HISTORY_MEMORY_MAX_ENTRIES / 4));
    let replayed = 0;
    for await (const page of this.calls.recentCalls(retentionStart(this.config, now), limit)) {
      for (const call of page) {
        const { observed } = observedValues(call.values);
        await this.store.observe(scopeId(call.scope), call.at, observed, {
          requestId: call.requestId,
          values: call.values,
        });
      }
      replayed += page.length;
    }
    if (replayed > 0)
      this.logger?.info(
        { calls: replayed, duration_ms: Date.now() - started },
        'history: recent verify calls replayed into the in-process store',
      );
  }

  onApplicationBootstrap(): void {
    const next = (delay: number) => {
      this.timer = setTimeout(() => {
        this.sweeping = this.sweep().finally(() => {
          this.sweeping = null;
          if (this.timer) next(SWEEP_EVERY_MS);
        });
      }, delay).unref();
    };
    next(FIRST_SWEEP_MS);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.sweeping;
    await this.log.close();
    await this.store.close();
  }

  /** Deletes calls and reports older than the retention; an outage waits for the next hour. */
  async sweep(): Promise<void> {
    const cutoff = retentionStart(this.config, Date.now());
    try {
      const calls = await this.calls.deleteBefore(cutoff);
      const reports = await this.reports.deleteBefore(cutoff);
      if (calls + reports > 0)
        this.logger?.info({ calls, reports, cutoff }, 'history: expired calls and reports deleted');
    } catch (error) {
      this.logger?.warn({ err: error }, 'history: retention sweep failed; next try in an hour');
    }
  }
}
