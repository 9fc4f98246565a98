import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { BoundedCounter } from './bounded-counter';
import {
  BATCH_JOB_STATUSES,
  BATCH_ROW_TYPES,
  BATCH_WORKERS,
  CREDIT_LEDGER_MOVEMENTS,
  CREDIT_OPERATIONS,
  DATA_LIST_KINDS,
  DATA_REFRESH_OUTCOMES,
  DNS_CACHE_RESULTS,
  DNS_OUTCOMES,
  HLR_OUTCOMES,
  OUTAGE_DEPENDENCIES,
  RECOVERY_OUTCOMES,
  REJECTION_REASONS,
  SMTP_RCPT_KINDS,
  SMTP_REASONS,
  SMTP_REFUSAL_STAGES,
  SMTP_RETRY_CAUSES,
  SMTP_SESSION_OUTCOMES,
  SMTP_SOURCES,
  UNAVAILABLE_DEPENDENCIES,
  WEBHOOK_OUTCOMES,
  type BatchJobStatus,
  type BatchRowType,
  type BatchWorker,
  type CreditLedgerMovement,
  type CreditOperation,
  type DataListKind,
  type DataRefreshOutcome,
  type DnsCacheResult,
  type DnsOutcome,
  type HlrOutcome,
  type OutageDependency,
  type RecoveryOutcome,
  type RejectionReason,
  type SmtpRcptKind,
  type SmtpReasonLabel,
  type SmtpRefusalStage,
  type SmtpRetryCause,
  type SmtpSessionOutcomeLabel,
  type SmtpSource,
  type SmtpVerdictLabel,
  type UnavailableDependency,
  type WebhookOutcome,
} from './metric-labels';
import {
  CHUNK_DURATION_BUCKETS,
  HTTP_DURATION_BUCKETS,
  METRIC_PREFIX,
  SMTP_WAIT_BUCKETS,
  metricDefinition,
  type MetricName,
} from './metric-catalogue';
import {
  readSource,
  type BusBacklog,
  type BusBacklogSource,
  type ConsumerLag,
  type DataAgeSource,
  type DataSourceAge,
  type DataSourceState,
  type DataStateSource,
  type JobIdle,
  type JobIdleSource,
  type LagSource,
  type ReadinessResult,
  type ReadinessSource,
} from './metric-sources';
import { HttpRequestSeries } from './http-request-series';

/** Sampling interval of the default metrics' event-loop lag monitor. */
const EVENT_LOOP_SAMPLE_MS = 200;

/** A counter whose labels are checked by type, so only bounded values reach it. */
export interface LabelledCounter<L> {
  inc(labels: L, value?: number): void;
}

/** A histogram whose labels are checked by type. */
export interface LabelledHistogram<L> {
  observe(labels: L, value: number): void;
  /** Starts a timer; calling the result observes the elapsed seconds and returns them. */
  startTimer(labels: L): () => number;
}

/** A gauge whose labels are checked by type. */
export interface LabelledGauge<L> {
  set(labels: L, value: number): void;
}

/** A gauge without labels. */
export interface PlainGauge {
  set(value: number): void;
  inc(value?: number): void;
  dec(value?: number): void;
}

/** Options of {@link createMetrics}. */
export interface CreateMetricsOptions {
  /** Registry to register into; a fresh one when omitted (tests). */
  registry?: Registry;
  /** Also collect default process metrics (CPU, memory, event loop, GC) with the `verity_` prefix. */
  defaults?: boolean;
  /** Deadline for scrape-time sources (consumer lag, data ages); default 3000 ms. */
  sourceTimeoutMs?: number;
}

/** Typed handles to every Verity metric, plus the registry that `/metrics` serialises. */
export interface VerityMetrics {
  readonly registry: Registry;
  readonly creditsConsumed: LabelledCounter<{ operation: CreditOperation }>;
  readonly httpRejections: LabelledCounter<{ reason: RejectionReason }>;
  readonly batchJobs: LabelledCounter<{ status: BatchJobStatus }>;
  readonly batchRowsProcessed: LabelledCounter<{ type: BatchRowType }>;
  readonly batchChunkDuration: LabelledHistogram<{ type: BatchRowType }>;
  readonly assemblerPendingChunks: PlainGauge;
  readonly dnsQueries: LabelledCounter<{ outcome: DnsOutcome }>;
  readonly dnsCacheLookups: LabelledCounter<{ result: DnsCacheResult }>;
  readonly hlrRequests: LabelledCounter<{ outcome: HlrOutcome }>;
  readonly dataRefreshes: LabelledCounter<{ kind: DataListKind; outcome: DataRefreshOutcome }>;
  readonly upstreamUnavailable: LabelledCounter<{ dependency: UnavailableDependency }>;
  readonly chunksDeadLettered: LabelledCounter<{ type: BatchRowType }>;
  readonly batchRecoveries: LabelledCounter<{ outcome: RecoveryOutcome }>;
  /** 1 while the worker waits out a dependency outage. */
  readonly batchDependencyOutage: LabelledGauge<{ worker: BatchWorker }>;
  readonly batchDependencyOutages: LabelledCounter<{
    worker: BatchWorker;
    dependency: OutageDependency;
  }>;
  readonly webhookDeliveries: LabelledCounter<{ outcome: WebhookOutcome }>;
  readonly creditLedgerErrors: LabelledCounter<{ movement: CreditLedgerMovement }>;
  readonly smtpSessions: LabelledCounter<{ outcome: SmtpSessionOutcomeLabel }>;
  readonly smtpRcpts: LabelledCounter<{ kind: SmtpRcptKind }>;
  readonly smtpAnswers: LabelledCounter<{
    verdict: SmtpVerdictLabel;
    reason: SmtpReasonLabel;
    source: SmtpSource;
  }>;
  readonly smtpRefusals: LabelledCounter<{ stage: SmtpRefusalStage }>;
  readonly smtpRetries: LabelledCounter<{ cause: SmtpRetryCause }>;
  /** Seconds a session waited for its mail host's slot. */
  readonly smtpHostWait: { observe(seconds: number): void };
  /** Counts one answered HTTP request (route template, never the URL) and its latency in seconds. */
  recordHttpRequest(method: string, route: string, status: number, seconds: number): void;
  /** Sets (or clears) the scrape-time reader of `verity_kafka_consumer_lag`. */
  setLagSource(source: LagSource | undefined): void;
  /** Sets (or clears) the scrape-time reader of `verity_row_bus_backlog_bytes`. */
  setBusBacklogSource(source: BusBacklogSource | undefined): void;
  /** Sets (or clears) the scrape-time reader of `verity_data_source_age_seconds`. */
  setDataAgeSource(source: DataAgeSource | undefined): void;
  /** Sets (or clears) the scrape-time reader of `verity_data_source_loaded`. */
  setDataStateSource(source: DataStateSource | undefined): void;
  /** Sets (or clears) the scrape-time reader of `verity_readiness_check`. */
  setReadinessSource(source: ReadinessSource | undefined): void;
  /** Sets (or clears) the scrape-time reader of `verity_batch_job_idle_seconds`. */
  setJobIdleSource(source: JobIdleSource | undefined): void;
}

// One catalogue per registry: `verity start` runs api, ingest and scorer in one process and
// they must share the handles rather than fail on duplicate registration.
const created = new WeakMap<Registry, VerityMetrics>();

function counter<L extends string>(registry: Registry, name: MetricName): BoundedCounter<L> {
  return new BoundedCounter<L>(registry, name);
}

function histogram<L extends string>(
  registry: Registry,
  name: MetricName,
  buckets: readonly number[],
): Histogram<L> {
  const def = metricDefinition(name);
  return new Histogram<L>({
    name,
    help: def.help,
    labelNames: def.labels as readonly L[],
    buckets: [...buckets],
    registers: [registry],
  });
}

/** Starts every bounded series at zero so `rate()` and dashboards work before the first event. */
function zero<K extends string, V extends string>(
  metric: BoundedCounter<K>,
  label: K,
  values: readonly V[],
): void {
  for (const value of values) {
    const labels = {} as Record<K, string>;
    labels[label] = value;
    metric.inc(labels, 0);
  }
}

/**
 * A gauge filled at scrape time from whatever source is set, reset first: a series that
 * disappeared (or a failed read) must not keep reporting its last value.
 */
function sourcedGauge<L extends string, R>(
  registry: Registry,
  name: MetricName,
  read: (source: () => Promise<readonly R[]> | readonly R[]) => Promise<readonly R[] | undefined>,
  set: (gauge: Gauge<L>, row: R) => void,
): { set(source: (() => Promise<readonly R[]> | readonly R[]) | undefined): void } {
  const def = metricDefinition(name);
  let source: (() => Promise<readonly R[]> | readonly R[]) | undefined;
  const gauge: Gauge<L> = new Gauge<L>({
    name,
    help: def.help,
    labelNames: def.labels as readonly L[],
    registers: [registry],
    collect: async () => {
      gauge.reset();
      if (source === undefined) return;
      for (const row of (await read(source)) ?? []) set(gauge, row);
    },
  });
  return {
    set(next) {
      source = next;
    },
  };
}

/** Registers the Verity metrics catalogue in a registry (once per registry) and returns typed handles. */
export function createMetrics(opts: CreateMetricsOptions = {}): VerityMetrics {
  const registry = opts.registry ?? new Registry();
  const existing = created.get(registry);
  if (existing !== undefined) return existing;
  const timeoutMs = opts.sourceTimeoutMs ?? 3_000;

  const http = new HttpRequestSeries(HTTP_DURATION_BUCKETS);
  http.register(registry, 'verity_http_requests_total', 'verity_http_request_duration_seconds');
  const creditsConsumed = counter<'operation'>(registry, 'verity_credits_consumed_total');
  zero(creditsConsumed, 'operation', CREDIT_OPERATIONS);
  const httpRejections = counter<'reason'>(registry, 'verity_http_rejections_total');
  zero(httpRejections, 'reason', REJECTION_REASONS);
  const batchJobs = counter<'status'>(registry, 'verity_batch_jobs_total');
  zero(batchJobs, 'status', BATCH_JOB_STATUSES);
  const batchRowsProcessed = counter<'type'>(registry, 'verity_batch_rows_processed_total');
  zero(batchRowsProcessed, 'type', BATCH_ROW_TYPES);
  const batchChunkDuration = histogram<'type'>(
    registry,
    'verity_batch_chunk_duration_seconds',
    CHUNK_DURATION_BUCKETS,
  );
  for (const type of BATCH_ROW_TYPES) batchChunkDuration.zero({ type });
  const assemblerPendingChunks = new Gauge({
    name: 'verity_batch_assembler_pending_chunks',
    help: metricDefinition('verity_batch_assembler_pending_chunks').help,
    registers: [registry],
  });
  const dnsQueries = counter<'outcome'>(registry, 'verity_dns_queries_total');
  zero(dnsQueries, 'outcome', DNS_OUTCOMES);
  const dnsCacheLookups = counter<'result'>(registry, 'verity_dns_cache_lookups_total');
  zero(dnsCacheLookups, 'result', DNS_CACHE_RESULTS);
  const hlrRequests = counter<'outcome'>(registry, 'verity_hlr_requests_total');
  zero(hlrRequests, 'outcome', HLR_OUTCOMES);
  const dataRefreshes = counter<'kind' | 'outcome'>(registry, 'verity_data_refresh_total');
  for (const kind of DATA_LIST_KINDS) {
    for (const outcome of DATA_REFRESH_OUTCOMES) dataRefreshes.inc({ kind, outcome }, 0);
  }

  const upstreamUnavailable = counter<'dependency'>(registry, 'verity_upstream_unavailable_total');
  zero(upstreamUnavailable, 'dependency', UNAVAILABLE_DEPENDENCIES);
  const chunksDeadLettered = counter<'type'>(registry, 'verity_batch_chunks_dead_lettered_total');
  zero(chunksDeadLettered, 'type', BATCH_ROW_TYPES);
  const batchRecoveries = counter<'outcome'>(registry, 'verity_batch_recoveries_total');
  zero(batchRecoveries, 'outcome', RECOVERY_OUTCOMES);
  const batchDependencyOutage = new Gauge<'worker'>({
    name: 'verity_batch_dependency_outage',
    help: metricDefinition('verity_batch_dependency_outage').help,
    labelNames: ['worker'],
    registers: [registry],
  });
  for (const worker of BATCH_WORKERS) batchDependencyOutage.set({ worker }, 0);
  const batchDependencyOutages = counter<'worker' | 'dependency'>(
    registry,
    'verity_batch_dependency_outages_total',
  );
  for (const worker of BATCH_WORKERS)
    for (const dependency of OUTAGE_DEPENDENCIES)
      batchDependencyOutages.inc({ worker, dependency }, 0);
  const webhookDeliveries = counter<'outcome'>(registry, 'verity_webhook_deliveries_total');
  zero(webhookDeliveries, 'outcome', WEBHOOK_OUTCOMES);
  const creditLedgerErrors = counter<'movement'>(registry, 'verity_credit_ledger_errors_total');
  zero(creditLedgerErrors, 'movement', CREDIT_LEDGER_MOVEMENTS);

  const smtpSessions = counter<'outcome'>(registry, 'verity_smtp_sessions_total');
  zero(smtpSessions, 'outcome', SMTP_SESSION_OUTCOMES);
  const smtpRcpts = counter<'kind'>(registry, 'verity_smtp_rcpts_total');
  zero(smtpRcpts, 'kind', SMTP_RCPT_KINDS);
  const smtpAnswers = counter<'verdict' | 'reason' | 'source'>(
    registry,
    'verity_smtp_answers_total',
  );
  // Only the unknown series start at zero: the collapse alert reads their rate.
  for (const reason of SMTP_REASONS) {
    for (const source of SMTP_SOURCES) smtpAnswers.inc({ verdict: 'unknown', reason, source }, 0);
  }
  const smtpRefusals = counter<'stage'>(registry, 'verity_smtp_refusals_total');
  zero(smtpRefusals, 'stage', SMTP_REFUSAL_STAGES);
  const smtpRetries = counter<'cause'>(registry, 'verity_smtp_retries_total');
  zero(smtpRetries, 'cause', SMTP_RETRY_CAUSES);
  const smtpHostWait = histogram<never>(
    registry,
    'verity_smtp_host_wait_seconds',
    SMTP_WAIT_BUCKETS,
  );

  const deadline = <R>(source: () => Promise<readonly R[]> | readonly R[]) =>
    readSource(source, timeoutMs);
  const lag = sourcedGauge<'group' | 'topic', ConsumerLag>(
    registry,
    'verity_kafka_consumer_lag',
    deadline,
    (g, row) => g.set({ group: row.group, topic: row.topic }, row.lag),
  );
  const backlog = sourcedGauge<'topic', BusBacklog>(
    registry,
    'verity_row_bus_backlog_bytes',
    deadline,
    (g, row) => g.set({ topic: row.topic }, row.bytes),
  );
  const age = sourcedGauge<'source', DataSourceAge>(
    registry,
    'verity_data_source_age_seconds',
    deadline,
    (g, row) => g.set({ source: row.source }, row.ageSeconds),
  );
  const state = sourcedGauge<'source', DataSourceState>(
    registry,
    'verity_data_source_loaded',
    deadline,
    (g, row) => g.set({ source: row.source }, row.loaded ? 1 : 0),
  );
  // Readiness checks carry their own deadline (a hung one reports failing), so the reader
  // waits a little longer than the usual deadline: a failing check must show as 0, not vanish.
  const readiness = sourcedGauge<'check', ReadinessResult>(
    registry,
    'verity_readiness_check',
    (source) => readSource(source, timeoutMs + 1_000),
    (g, row) => g.set({ check: row.check }, row.ok ? 1 : 0),
  );
  const idle = sourcedGauge<'status', JobIdle>(
    registry,
    'verity_batch_job_idle_seconds',
    deadline,
    (g, row) => g.set({ status: row.status }, row.idleSeconds),
  );

  // The event-loop lag histogram samples with a timer: prom-client's default 10 ms woke an idle
  // process 100 times a second (about 1 % of a core); lag is still measured exactly.
  if (opts.defaults === true)
    collectDefaultMetrics({
      register: registry,
      prefix: METRIC_PREFIX,
      eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS,
    });

  const metrics: VerityMetrics = {
    registry,
    creditsConsumed,
    httpRejections,
    batchJobs,
    batchRowsProcessed,
    batchChunkDuration,
    assemblerPendingChunks,
    dnsQueries,
    dnsCacheLookups,
    hlrRequests,
    dataRefreshes,
    upstreamUnavailable,
    chunksDeadLettered,
    batchRecoveries,
    batchDependencyOutage,
    batchDependencyOutages,
    webhookDeliveries,
    creditLedgerErrors,
    smtpSessions,
    smtpRcpts,
    smtpAnswers,
    smtpRefusals,
    smtpRetries,
    smtpHostWait: { observe: (seconds) => smtpHostWait.observe(seconds) },
    recordHttpRequest: (method, route, status, seconds) =>
      http.record(method, route, status, seconds),
    setLagSource: (source) => lag.set(source),
    setBusBacklogSource: (source) => backlog.set(source),
    setDataAgeSource: (source) => age.set(source),
    setDataStateSource: (source) => state.set(source),
    setReadinessSource: (source) => readiness.set(source),
    setJobIdleSource: (source) => idle.set(source),
  };
  created.set(registry, metrics);
  return metrics;
}
