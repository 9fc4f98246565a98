import type { AppConfig } from '@verity/config';
import type { DataSourceStatus } from './data-source.status';
import { updateIpData, type IpDataUpdateResult } from './ip-data.updater';
import type { IpEngineHandle } from './ip-engine.builder';

/** Where the scheduler reports (a pino logger fits). */
export interface DataRefreshLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Options of DataRefreshScheduler. */
export interface DataRefreshOptions {
  /** Time between refreshes (DATA_REFRESH_INTERVAL). */
  readonly intervalMs: number;
  readonly log: DataRefreshLog;
  /** Injected fetch (tests); default the global fetch. */
  readonly fetch?: typeof fetch;
}

/** Open-data lists (not the MMDB/CSV databases, which ship as npm packages). */
const LIST_KINDS = new Set<DataSourceStatus['kind']>([
  'tor',
  'vpn',
  'proxy',
  'datacenter',
  'blocklist',
]);

/**
 * Refreshes the open-data lists from inside a running service (`DATA_REFRESH_INTERVAL`):
 * downloads them as `verity data update` does (validated, written atomically), swaps the
 * changed files in, and warns about every list still older than its expected cadence. The
 * first run is at once when a list is missing or stale, else after one interval. Runs never
 * overlap; a failed download keeps the previous file and is logged.
 */
export class DataRefreshScheduler {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<IpDataUpdateResult[]> | null = null;
  private closed = false;

  constructor(
    private readonly config: AppConfig,
    private readonly ip: IpEngineHandle,
    private readonly opts: DataRefreshOptions,
  ) {}

  /** Starts the schedule. */
  start(): void {
    const due = this.lists().some((s) => s.status !== 'loaded');
    this.schedule(due ? 0 : this.opts.intervalMs);
  }

  /** One refresh now (joins a run in progress). */
  runOnce(): Promise<IpDataUpdateResult[]> {
    this.running ??= this.refresh().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** Stops the schedule and waits for a run in progress. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running?.catch(() => undefined);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.runOnce()
        .catch((e: unknown) => this.opts.log.warn({ err: e }, 'data refresh failed'))
        .finally(() => this.schedule(this.opts.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  private async refresh(): Promise<IpDataUpdateResult[]> {
    const results = await updateIpData(this.config, { fetch: this.opts.fetch });
    await this.ip.refreshChanged();
    const updated = results.filter((r) => r.status === 'updated').map((r) => r.id);
    this.opts.log.info({ updated }, 'data refresh done');
    for (const r of results) {
      if (r.status === 'failed') {
        this.opts.log.warn({ source: r.id, error: r.error }, 'data refresh: download failed');
      }
    }
    warnStale(this.lists(), this.opts.log);
    return results;
  }

  private lists(): DataSourceStatus[] {
    return this.ip.dataStatus().filter((s) => LIST_KINDS.has(s.kind));
  }
}

/**
 * Logs one short warning naming every source that is missing or older than its expected
 * cadence, so a fresh install's first screen gets a few terminal rows, not one line per list
 * (ages and cadences are in /readyz).
 */
export function warnStale(sources: readonly DataSourceStatus[], log: DataRefreshLog): void {
  const ids = (status: DataSourceStatus['status']) =>
    sources.filter((s) => s.status === status).map((s) => s.id);
  const missing = ids('missing');
  const stale = ids('stale');
  const count = missing.length + stale.length;
  if (count === 0) return;
  log.warn(
    { missing, stale },
    `${count} open-data list(s) missing or late (details in /readyz): ` +
      'run `verity data update`, or set DATA_REFRESH_INTERVAL',
  );
}
