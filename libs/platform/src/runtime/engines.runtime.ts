import type { AppConfig } from '@verity/config';
import {
  buildEmailEngine,
  buildIpEngine,
  buildPhoneEngine,
  DataRefreshScheduler,
  warnStale,
  type DataRefreshLog,
  type HlrCallOutcome,
  type CanaryReport,
  type IpEngineHandle,
} from '@verity/integrations';
import type { HlrOutcome, VerityMetrics } from '@verity/observability';
import type { Engines } from '../engines.tokens';
import { reportedOnly, type CheckResult, type ResourceCheck } from '../health/health.registry';

/** The engines of a process, the IP data handle (status, reload) and how to release them. */
export interface EnginesRuntime {
  engines: Engines;
  ipData: IpEngineHandle;
  /** Readiness of the data sets: ready while every required source is loaded; lists each source's age. */
  dataReadiness(): Promise<CheckResult>;
  /** The resolvers' canary: failing while they deny or drop every canary domain (a warning, not a readiness gate). */
  resolverReadiness(): Promise<CheckResult>;
  /** The last canary check, for the start banner. */
  resolver(): CanaryReport;
  /** The readiness checks of the engines: `data_sets` (required) and `dns` (reported only). */
  checks(): Record<string, ResourceCheck>;
  close(): Promise<void>;
}

function hlrOutcomeLabel(outcome: HlrCallOutcome): HlrOutcome {
  switch (outcome) {
    case 'active':
    case 'inactive':
    case 'unavailable':
    case 'timeout':
    case 'not_configured':
      return outcome;
    case 'network_error':
    case 'redirect':
    case 'auth_failed':
    case 'http_error':
    case 'bad_response':
    case 'lookup_failed':
    case 'closed':
    case 'error':
      return 'error';
  }
}

/**
 * Builds the email, phone and IP engines from configuration, wires their events to metrics,
 * and starts the open-data refresh unless DATA_REFRESH_INTERVAL is `off`.
 */
export async function buildEngines(
  config: AppConfig,
  metrics: VerityMetrics | null,
  log: DataRefreshLog,
): Promise<EnginesRuntime> {
  const email = buildEmailEngine(
    config,
    metrics
      ? {
          onQuery: (outcome) => metrics.dnsQueries.inc({ outcome }),
          onCacheHit: () => metrics.dnsCacheLookups.inc({ result: 'hit' }),
          onCacheMiss: () => metrics.dnsCacheLookups.inc({ result: 'miss' }),
        }
      : undefined,
  );
  const phone = buildPhoneEngine(
    config,
    metrics
      ? { onHlrCall: (outcome) => metrics.hlrRequests.inc({ outcome: hlrOutcomeLabel(outcome) }) }
      : undefined,
  );
  // The resolvers are checked before the process serves, so the first answers already know
  // whether "no such domain" can be believed; a slow check finishes in the background.
  await email.canary.start(config.DNS_TIMEOUT_MS + 500, config.DNS_CANARY_INTERVAL_MS);
  const ipData = await buildIpEngine(config);
  metrics?.setDataAgeSource(() =>
    ipData
      .dataStatus()
      .filter((s) => s.age_seconds !== null)
      .map((s) => ({ source: s.id, ageSeconds: s.age_seconds! })),
  );
  // A list that never loaded has no age, so the stale alert cannot see it: its own gauge does.
  metrics?.setDataStateSource(() =>
    ipData
      .dataStatus()
      .map((s) => ({ source: s.id, loaded: s.status === 'loaded' || s.status === 'stale' })),
  );
  const interval = config.DATA_REFRESH_INTERVAL;
  const refresh =
    interval === 'off'
      ? null
      : new DataRefreshScheduler(config, ipData, {
          intervalMs: interval === 'on' ? undefined : interval,
          log,
          onResult: (kind, outcome) => metrics?.dataRefreshes.inc({ kind, outcome }),
        });
  // The first refresh runs in the background: start-up and readiness never wait for it.
  if (refresh === null) warnStale(ipData.dataStatus(), log);
  else refresh.start();
  const runtime: EnginesRuntime = {
    engines: { email: email.engine, phone: phone.engine, ip: ipData.engine },
    ipData,
    dataReadiness() {
      const sources = ipData.dataStatus();
      const ok = sources.every((s) => !s.required || s.status === 'loaded' || s.status === 'stale');
      const detail = sources.map((s) => ({
        id: s.id,
        status: s.status,
        required: s.required,
        entries: s.entries,
        age_seconds: s.age_seconds,
        max_age_seconds: s.max_age_seconds,
        ...(s.status === 'stale'
          ? { warning: `older than its expected cadence of ${s.max_age_seconds} s` }
          : {}),
        ...(s.error ? { error: s.error } : {}),
      }));
      return Promise.resolve({ ok, detail });
    },
    resolverReadiness() {
      const report = email.canary.report;
      return Promise.resolve({
        ok: report.state !== 'denies_domains' && report.state !== 'unreachable',
        detail: { ...report, servers: config.DNS_SERVERS.length > 0 ? 'DNS_SERVERS' : 'system' },
      });
    },
    resolver: () => email.canary.report,
    checks() {
      return {
        data_sets: () => runtime.dataReadiness(),
        dns: reportedOnly(() => runtime.resolverReadiness()),
      };
    },
    async close() {
      phone.close();
      await refresh?.close();
      await Promise.all([email.close(), ipData.close()]);
    },
  };
  return runtime;
}
