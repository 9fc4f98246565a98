import { counted } from '@verity/common';
import type { AppConfig } from '@verity/config';
import type { DataSourceStatus } from './data-source.status';
import { updateIpData, type IpDataUpdateResult } from './ip-data.updater';
import type { IpEngineHandle } from './ip-engine.builder';
import { listSources, type ListSource } from './ip-list.sources';

/** Where the scheduler reports (a pino logger fits). */
export interface DataRefreshLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Options of DataRefreshScheduler. */
export interface DataRefreshOptions {
  /** One interval for every list (DATA_REFRESH_INTERVAL as a duration); unset: each list's own cadence. */
  readonly intervalMs?: number;
  readonly log: DataRefreshLog;
  /** Injected fetch (tests); default the global fetch. */
  readonly fetch?: typeof fetch;
  /** Told of every download's outcome (the `verity_data_refresh_total` metric). */
  readonly onResult?: (kind: ListSource['kind'], outcome: IpDataUpdateResult['status']) => void;
}

/** Open-data lists (not the MMDB/CSV databases, which ship as npm packages). */
const LIST_KINDS = new Set<DataSourceStatus['kind']>([
  'tor',
  'vpn',
  'proxy',
  'datacenter',
  'blocklist',
]);

/** Never tick more often than this, whatever the cadences (a failing source waits its turn). */
const MIN_TICK_MS = 60_000;

/**
 * Refreshes the open-data lists from inside a running service (`DATA_REFRESH_INTERVAL`):
 * downloads them as `verity data update` does (validated, written atomically) and swaps the
 * changed files in. Each list is due when its data is older than its cadence (`refreshMs` of
 * ip-list.sources.ts, or the one configured interval), counting a failed attempt as a try, so
 * a missing or stale list is fetched by the first run, in the background right after start,
 * and an unreachable source is retried once per cadence. Runs never overlap. A run with a
 * failed download or a list still late logs one warning line, never an error.
 */
export class DataRefreshScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<IpDataUpdateResult[]> | null = null;
  private closed = false;
  private readonly sources: readonly ListSource[];
  /** When this process last tried each list (success or failure). */
  private readonly attempted = new Map<string, number>();

  constructor(
    private readonly config: AppConfig,
    private readonly ip: IpEngineHandle,
    private readonly opts: DataRefreshOptions,
  ) {
    this.sources = listSources(config);
  }

  /** Starts the schedule: the first due lists are fetched at once, in the background. */
  start(): void {
    this.schedule(0);
  }

  /** One refresh of every list now (joins a run in progress). */
  runOnce(): Promise<IpDataUpdateResult[]> {
    return this.run(undefined);
  }

  /** Stops the schedule and waits for a run in progress. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private run(only: readonly string[] | undefined): Promise<IpDataUpdateResult[]> {
    this.running ??= this.refresh(only).finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      const due = this.due(Date.now());
      const work = due.length === 0 ? Promise.resolve([]) : this.run(due);
      void work
        .catch((e: unknown) => this.opts.log.warn({ err: e }, 'data refresh failed'))
        .finally(() => this.schedule(this.nextDelay(Date.now())));
    }, delayMs);
    this.timer.unref();
  }

  private cadence(s: ListSource): number {
    return this.opts.intervalMs ?? s.refreshMs;
  }

  /** When each list's data was written (file mtime), by id; absent when there is none. */
  private dataTimes(now: number): Map<string, number> {
    const times = new Map<string, number>();
    for (const st of this.ip.dataStatus()) {
      if (LIST_KINDS.has(st.kind) && st.age_seconds !== null && st.status !== 'missing') {
        times.set(st.id, now - st.age_seconds * 1000);
      }
    }
    return times;
  }

  private dueAt(s: ListSource, times: Map<string, number>): number {
    const last = Math.max(times.get(s.id) ?? -Infinity, this.attempted.get(s.id) ?? -Infinity);
    return last + this.cadence(s);
  }

  private due(now: number): string[] {
    const times = this.dataTimes(now);
    return this.sources.filter((s) => this.dueAt(s, times) <= now).map((s) => s.id);
  }

  private nextDelay(now: number): number {
    const times = this.dataTimes(now);
    const next = Math.min(...this.sources.map((s) => this.dueAt(s, times)));
    return Math.max(MIN_TICK_MS, Number.isFinite(next) ? next - now : MIN_TICK_MS);
  }

  private async refresh(only: readonly string[] | undefined): Promise<IpDataUpdateResult[]> {
    const started = Date.now();
    const results = await updateIpData(this.config, { fetch: this.opts.fetch, only });
    await this.ip.refreshChanged();
    const kinds = new Map(this.sources.map((s) => [s.id, s.kind]));
    for (const r of results) {
      this.attempted.set(r.id, started);
      const kind = kinds.get(r.id);
      if (kind !== undefined) this.opts.onResult?.(kind, r.status);
    }
    const updated = results.filter((r) => r.status === 'updated').map((r) => r.id);
    if (updated.length > 0) this.opts.log.info({ updated }, 'data refresh done');
    const failed = results
      .filter((r) => r.status === 'failed')
      .map((r) => ({ source: r.id, error: r.error }));
    warnStale(this.lists(), this.opts.log, failed);
    return results;
  }

  private lists(): DataSourceStatus[] {
    return this.ip.dataStatus().filter((s) => LIST_KINDS.has(s.kind));
  }
}

/** One list download that failed, for the warning line. */
export interface FailedDownload {
  source: string;
  error: string | null;
}

/**
 * Logs one short warning naming every failed download and every source that is missing or
 * older than its expected cadence, so a fresh install's first screen (or an offline one) gets
 * one line per run, not one per list (ages and cadences are in /readyz).
 */
export function warnStale(
  sources: readonly DataSourceStatus[],
  log: DataRefreshLog,
  failed: readonly FailedDownload[] = [],
): void {
  const ids = (status: DataSourceStatus['status']) =>
    sources.filter((s) => s.status === status).map((s) => s.id);
  const missing = ids('missing');
  const stale = ids('stale');
  const count = missing.length + stale.length;
  if (count === 0 && failed.length === 0) return;
  const late = count === 0 ? '' : `${counted(count, 'list')} missing or late`;
  const downloads = failed.length === 0 ? '' : `${counted(failed.length, 'download')} failed`;
  log.warn(
    { missing, stale, ...(failed.length > 0 && { failed }) },
    `open-data lists: ${[downloads, late].filter(Boolean).join(', ')}; ` +
      (failed.length > 0
        ? 'the copies on disk stay in use (/readyz has each list)'
        : 'run `verity data update` or let the service refresh them (DATA_REFRESH_INTERVAL=on); /readyz has each list'),
  );
}
