/** Kind of a Prometheus metric in the catalogue. */
export type MetricType = 'counter' | 'gauge' | 'histogram';

/** One entry of the metrics catalogue: the single source for code, docs and dashboard checks. */
export interface MetricDefinition {
  readonly name: string;
  readonly type: MetricType;
  readonly help: string;
  readonly labels: readonly string[];
}

/** Prefix of every Verity metric, default process metrics included. */
export const METRIC_PREFIX = 'verity_';

/**
 * HTTP latency buckets in seconds. Single validations answer in milliseconds (cache hits in
 * well under 1 ms), DNS-bound ones in tens to hundreds of ms; 5 s is the slowest we still
 * tell apart from a timeout.
 */
export const HTTP_DURATION_BUCKETS: readonly number[] = [
  0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/** Chunk latency buckets in seconds: a 1,000-row chunk takes from ~50 ms (IP) to minutes (DNS-bound email). */
export const CHUNK_DURATION_BUCKETS: readonly number[] = [
  0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300,
];

/** SMTP host-wait buckets in seconds: none, a slot freed within a session, a rate window, a backoff. */
export const SMTP_WAIT_BUCKETS: readonly number[] = [0.01, 0.1, 0.5, 1, 5, 15, 30, 60, 120, 300];

/** The SMTP mailbox probe's metrics (docs/operations.md, "Metrics"). */
const SMTP_METRICS = [
  {
    name: 'verity_smtp_sessions_total',
    type: 'counter',
    help: 'SMTP sessions to mail hosts, by how they ended: served (reached RCPT), refused (421/4xx/5xx before RCPT), unreachable (no connection), failed (broke off).',
    labels: ['outcome'],
  },
  {
    name: 'verity_smtp_rcpts_total',
    type: 'counter',
    help: 'RCPT TO commands sent, by kind: an address, or the random recipient of a catch-all check (recipients per session = this over served sessions).',
    labels: ['kind'],
  },
  {
    name: 'verity_smtp_answers_total',
    type: 'counter',
    help: 'Addresses answered by the SMTP probe, by verdict, reason and source (live or cached).',
    labels: ['verdict', 'reason', 'source'],
  },
  {
    name: 'verity_smtp_refusals_total',
    type: 'counter',
    help: 'Sessions a mail host refused for now, by stage: session (421 or 4xx at greeting, EHLO or MAIL) or rcpt (421 after RCPT began); the host is backed off.',
    labels: ['stage'],
  },
  {
    name: 'verity_smtp_retries_total',
    type: 'counter',
    help: 'Addresses sent to another round of the batch retry window, by cause (temporary_failure: greylisting, rate limits).',
    labels: ['cause'],
  },
  {
    name: 'verity_smtp_host_wait_seconds',
    type: 'histogram',
    help: "Time a session waited for its mail host's slot (session cap, per-minute cap, refusal backoff), in seconds.",
    labels: [],
  },
] as const satisfies readonly MetricDefinition[];

/** Every application metric Verity exports (default process metrics come on top). */
export const METRIC_CATALOGUE = [
  {
    name: 'verity_http_requests_total',
    type: 'counter',
    help: 'HTTP requests answered, by method, route template and status code.',
    labels: ['method', 'route', 'status'],
  },
  {
    name: 'verity_http_request_duration_seconds',
    type: 'histogram',
    help: 'HTTP request latency in seconds, by method, route template and status code.',
    labels: ['method', 'route', 'status'],
  },
  {
    name: 'verity_credits_consumed_total',
    type: 'counter',
    help: 'Credits debited, by billable operation.',
    labels: ['operation'],
  },
  {
    name: 'verity_http_rejections_total',
    type: 'counter',
    help: 'Requests refused before any work: 402 insufficient_credits or 429 rate_limited.',
    labels: ['reason'],
  },
  {
    name: 'verity_batch_jobs_total',
    type: 'counter',
    help: 'Batch jobs reaching each status.',
    labels: ['status'],
  },
  {
    name: 'verity_batch_rows_processed_total',
    type: 'counter',
    help: 'Batch rows validated by scorers, by row type.',
    labels: ['type'],
  },
  {
    name: 'verity_batch_chunk_duration_seconds',
    type: 'histogram',
    help: 'Time a scorer spends validating and storing one chunk, in seconds.',
    labels: ['type'],
  },
  {
    name: 'verity_batch_assembler_pending_chunks',
    type: 'gauge',
    help: 'Chunk results waiting to be assembled into result files.',
    labels: [],
  },
  {
    name: 'verity_kafka_consumer_lag',
    type: 'gauge',
    help: 'Messages not yet consumed, summed over partitions, by consumer group and topic.',
    labels: ['group', 'topic'],
  },
  {
    name: 'verity_row_bus_backlog_bytes',
    type: 'gauge',
    help: 'Bytes of messages the in-process row bus (ROW_BUS=memory) holds for its consumers, by topic; a publish waits while a topic holds ROW_BUS_MEMORY_MAX_BYTES.',
    labels: ['topic'],
  },
  {
    name: 'verity_dns_queries_total',
    type: 'counter',
    help: 'DNS queries sent upstream, by outcome.',
    labels: ['outcome'],
  },
  {
    name: 'verity_dns_cache_lookups_total',
    type: 'counter',
    help: 'DNS cache lookups, by result (hit or miss).',
    labels: ['result'],
  },
  {
    name: 'verity_hlr_requests_total',
    type: 'counter',
    help: 'HLR lookups, by outcome.',
    labels: ['outcome'],
  },
  {
    name: 'verity_data_refresh_total',
    type: 'counter',
    help: 'Open-data list downloads by the in-service refresh, by list kind and outcome (updated or failed).',
    labels: ['kind', 'outcome'],
  },
  {
    name: 'verity_data_source_age_seconds',
    type: 'gauge',
    help: 'Age of each loaded data set (disposable domains, MMDB, operator lists) in seconds.',
    labels: ['source'],
  },
  {
    name: 'verity_data_source_loaded',
    type: 'gauge',
    help: 'Whether each data set is in use (1: loaded or stale) or has never loaded in this process (0: missing or unreadable).',
    labels: ['source'],
  },
  {
    name: 'verity_readiness_check',
    type: 'gauge',
    help: 'Readiness check result at scrape time, by check (database, row_bus, job_queue, blob_store, ...): 1 passing, 0 failing.',
    labels: ['check'],
  },
  {
    name: 'verity_upstream_unavailable_total',
    type: 'counter',
    help: 'Requests answered 503 because a dependency could not answer, by dependency.',
    labels: ['dependency'],
  },
  {
    name: 'verity_batch_job_idle_seconds',
    type: 'gauge',
    help: 'Longest time an unfinished job has gone without a scored chunk (since creation if none), by status; 0 when no job has the status.',
    labels: ['status'],
  },
  {
    name: 'verity_batch_chunks_dead_lettered_total',
    type: 'counter',
    help: 'Chunks given up after BATCH_CHUNK_MAX_ATTEMPTS failures (their job fails and is refunded), by row type.',
    labels: ['type'],
  },
  {
    name: 'verity_batch_recoveries_total',
    type: 'counter',
    help: 'Recoveries of batch jobs: republished (chunks not recorded as scored were published again, after a restart or a stall), failed (a stalled job given up and refunded).',
    labels: ['outcome'],
  },
  {
    name: 'verity_batch_dependency_outage',
    type: 'gauge',
    help: '1 while this batch worker waits out an outage of PostgreSQL, S3, Redis or Kafka (its consumer paused), else 0.',
    labels: ['worker'],
  },
  {
    name: 'verity_batch_dependency_outages_total',
    type: 'counter',
    help: 'Dependency outages a batch worker began waiting out, by worker and the dependency that failed first.',
    labels: ['worker', 'dependency'],
  },
  {
    name: 'verity_webhook_deliveries_total',
    type: 'counter',
    help: 'End-of-job webhook delivery attempts, by outcome.',
    labels: ['outcome'],
  },
  {
    name: 'verity_credit_ledger_errors_total',
    type: 'counter',
    help: 'Credit ledger transactions that failed (not refusals for lack of credits), by movement.',
    labels: ['movement'],
  },
  ...SMTP_METRICS,
] as const satisfies readonly MetricDefinition[];

/** A Verity application metric name. */
export type MetricName = (typeof METRIC_CATALOGUE)[number]['name'];

/** Names of every application metric, in catalogue order. */
export const METRIC_NAMES: readonly MetricName[] = METRIC_CATALOGUE.map((m) => m.name);

/** Names of the histogram metrics (they expose `_bucket`, `_sum` and `_count` series). */
export const HISTOGRAM_METRIC_NAMES: readonly MetricName[] = METRIC_CATALOGUE.filter(
  (m) => m.type === 'histogram',
).map((m) => m.name);

/** Looks up one catalogue entry by name. */
export function metricDefinition(name: MetricName): MetricDefinition {
  const found = METRIC_CATALOGUE.find((m) => m.name === name);
  if (found === undefined) throw new Error(`unknown metric ${name}`);
  return found;
}
