import { z } from 'zod';
import { envBool, envInt, envList } from '../env-types';
import type { CoreConfig } from './core.config';

/** Batch engine settings: row bus, job queues, blob store, limits, signing. */
export const batchSchema = z.object({
  ROW_BUS: z.enum(['memory', 'kafka']).default('memory'),
  /**
   * With ROW_BUS=memory, the bytes of chunk messages a topic holds before the splitter waits
   * for the scorers (backpressure): the embedded default's memory follows this, not uploads.
   */
  ROW_BUS_MEMORY_MAX_BYTES: envInt(64 * 1024 * 1024),
  KAFKA_BROKERS: envList(),
  KAFKA_CLIENT_ID: z.string().min(1).default('verity'),
  /** Partitions of the chunk and progress topics, created with them at start (docs/operations.md, Kafka topics). */
  KAFKA_CHUNK_PARTITIONS: envInt(6),
  /**
   * Replication factor of the topics Verity creates; unset: min(3, brokers in the cluster), so
   * one broker's loss keeps every chunk on a three-broker cluster and a single broker still works.
   */
  KAFKA_REPLICATION_FACTOR: z.coerce.number().int().min(1).optional(),
  JOB_QUEUE: z.enum(['memory', 'bull']).default('memory'),
  BLOB_STORE: z.enum(['local', 's3']).default('local'),
  S3_ENDPOINT: z.url().optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_BUCKET: z.string().min(3).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  S3_FORCE_PATH_STYLE: envBool(true),
  BATCH_MAX_ROWS: envInt(1_000_000),
  BATCH_MAX_BYTES: envInt(200 * 1024 * 1024),
  /**
   * Rows per chunk message. 10,000 keeps per-chunk costs (a part object written and read back,
   * two Kafka messages and their offset commits, a database statement) small next to the
   * scoring: against 5,000 it cut every process's CPU per row, ingest's by a fifth
   * (docs/benchmarks.md), and a chunk of emails (about 310 KB) stays under the 512 KiB message
   * cap; longer rows make the splitter halve a chunk.
   */
  BATCH_CHUNK_ROWS: envInt(10_000),
  DOWNLOAD_URL_TTL_SECONDS: envInt(3_600),
  /**
   * Days a result file is kept after its job ended; then ingest deletes it and a download
   * answers 410 gone. Uploads are deleted as soon as a job ends.
   */
  RESULT_RETENTION_DAYS: envInt(7),
  SIGNING_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  WEBHOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  WEBHOOK_ALLOW_PRIVATE: envBool(false),
  WEBHOOK_TIMEOUT_MS: envInt(10_000),
  WEBHOOK_MAX_ATTEMPTS: envInt(8),
  /**
   * Prefix of the batch topics, consumer groups and queue names, so several installations (or
   * test runs) can share one Kafka and one Redis: `acme` gives `acme.verity.batch.chunks`.
   */
  BATCH_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]*$/, 'lowercase letters, digits, - and _ only')
    .optional(),
  /** Base of the webhook retry backoff (Bull exponential): 30 s, 1 min, 2 min, ... */
  WEBHOOK_RETRY_BASE_MS: envInt(30_000),
  /** Queued or processing jobs one account may have at once; more is 429 rate_limited. */
  BATCH_MAX_ACTIVE_JOBS: envInt(10),
  /** Deliveries of one chunk that fail before the chunk (and its job) is failed. */
  BATCH_CHUNK_MAX_ATTEMPTS: envInt(5),
  /**
   * How long a batch worker waits out an outage of PostgreSQL, S3, Redis or Kafka (consumer
   * paused, retrying with backoff) without any progress before its errors count as failed
   * attempts (and BATCH_CHUNK_MAX_ATTEMPTS then fails the job). Default 15 minutes.
   */
  BATCH_OUTAGE_BUDGET_MS: envInt(15 * 60 * 1000),
  /** Rows of one email chunk validated at once (DNS lookups in flight per chunk). */
  BATCH_EMAIL_CONCURRENCY: envInt(64),
  /** Chunk messages a scorer process handles at once (partitions in parallel). */
  BATCH_SCORER_CONCURRENCY: envInt(2),
  /** How often ingest re-enqueues jobs that look abandoned (queued, or processing without progress). */
  BATCH_RECOVERY_INTERVAL_MS: envInt(30_000),
  /**
   * A processing job without progress for this long is recovered: every chunk not recorded as
   * scored is published again (scorers skip the copies of chunks they already scored).
   */
  BATCH_STALL_MS: envInt(300_000),
  /**
   * Recoveries a stalled job gets, each followed by BATCH_STALL_MS in which no job made any
   * progress and no batch worker waited on a dependency outage, before it fails with its
   * unscored rows refunded (docs/batch.md, "Recovery").
   */
  BATCH_STALL_RECOVERIES: envInt(3, 0),
  /**
   * This process's name among the ingest replicas (default: the host name, which is the pod's
   * name in Kubernetes). A restarted process gives back the assembly claims its name held.
   */
  INSTANCE_ID: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'letters, digits, ., - and _ only (≤ 63)')
    .optional(),
});

/** The batch section of the validated config (inject it with BATCH_CONFIG). */
export type BatchConfig = z.infer<typeof batchSchema>;

/** Rules that depend on the chosen backends: a backend's settings are required only when it is chosen. */
export function refineBatch(
  cfg: BatchConfig & Pick<CoreConfig, 'REDIS_URL' | 'PUBLIC_URL'>,
  ctx: z.RefinementCtx,
): void {
  const need = (ok: boolean, path: string, message: string) => {
    if (!ok) ctx.addIssue({ code: 'custom', path: [path], message });
  };
  if (cfg.ROW_BUS === 'kafka') {
    need(cfg.KAFKA_BROKERS.length > 0, 'KAFKA_BROKERS', 'required when ROW_BUS=kafka');
    // Behind a load balancer no local address is one clients can reach, and a request's Host
    // header is the client's to choose: links need the configured public address.
    need(cfg.PUBLIC_URL !== undefined, 'PUBLIC_URL', 'required when ROW_BUS=kafka');
  }
  if (cfg.JOB_QUEUE === 'bull') {
    need(cfg.REDIS_URL !== undefined, 'REDIS_URL', 'required when JOB_QUEUE=bull');
  }
  if (cfg.BLOB_STORE === 's3') {
    need(cfg.S3_BUCKET !== undefined, 'S3_BUCKET', 'required when BLOB_STORE=s3');
    need(cfg.S3_ACCESS_KEY_ID !== undefined, 'S3_ACCESS_KEY_ID', 'required when BLOB_STORE=s3');
    need(
      cfg.S3_SECRET_ACCESS_KEY !== undefined,
      'S3_SECRET_ACCESS_KEY',
      'required when BLOB_STORE=s3',
    );
  }
}
