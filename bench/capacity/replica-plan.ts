// The replica plan for a target batch throughput, from measured CPU-seconds per million rows
// per process (docs/scaling.md explains each rule). Pure: figures and options in, plan out.
import type { KindFigures } from './bench-figures';

export interface PlanOptions {
  /** Fraction of a core a replica is planned to use; the rest absorbs bursts and GC. */
  utilisation: number;
  /** BATCH_SCORER_CONCURRENCY: partitions one scorer consumes at once. */
  scorerConcurrency: number;
  /** BATCH_CHUNK_ROWS. */
  chunkRows: number;
  /** Price of 1,000 S3 requests, USD (every request priced as a PUT: an upper bound). */
  s3UsdPerThousandRequests: number;
}

/** S3 Standard list price for PUT, COPY, POST, LIST requests (us-east-1), per 1,000. */
export const S3_PUT_USD_PER_THOUSAND = 0.005;

export const DEFAULT_PLAN_OPTIONS: PlanOptions = {
  utilisation: 0.7,
  scorerConcurrency: 2,
  chunkRows: 10_000,
  s3UsdPerThousandRequests: S3_PUT_USD_PER_THOUSAND,
};

export interface ReplicaPlan {
  rowsPerSecond: number;
  scorer: { cores: number; replicas: number };
  ingest: { cores: number; replicas: number; perJobCeilingRowsPerSecond: number };
  api: { cores: number };
  kafka: { brokerCores: number; messagesPerSecond: number; partitions: number };
  s3: {
    requestsPerSecond: number;
    megabytesPerSecond: number;
    usdPerMillionRows: number;
    /** Cores of an S3Proxy-style gateway, when the store is self-hosted (as measured). */
    selfHostedCores: number;
  };
  postgres: { cores: number; statementsPerSecond: number };
  redis: { cores: number };
}

const MILLION = 1_000_000;
/**
 * Fewest replicas, as in deploy/k8s: ingest runs two so a lost pod never stops splits and
 * assembly; scorers scale from one on Kafka lag (KEDA).
 */
const MIN_REPLICAS = { scorer: 1, ingest: 2 } as const;

export function planReplicas(
  figures: KindFigures,
  rowsPerSecond: number,
  options: PlanOptions = DEFAULT_PLAN_OPTIONS,
): ReplicaPlan {
  if (!(rowsPerSecond > 0)) throw new RangeError('rows per second must be a positive number');
  if (!(options.utilisation > 0 && options.utilisation <= 1)) {
    throw new RangeError('utilisation must be in (0, 1]');
  }
  const cpu = figures.cpuSecondsPerMillionRows;
  const cores = (cpuPerMillion: number) => (rowsPerSecond * cpuPerMillion) / MILLION;
  // A Node.js process scores on one event loop: one replica is at most one core.
  const replicasFor = (c: number, min: number) => Math.max(min, Math.ceil(c / options.utilisation));

  const scorerReplicas = replicasFor(cores(cpu.scorersTotal), MIN_REPLICAS.scorer);
  // Every scorer busy needs replicas × concurrency partitions; twice that lets the replicas
  // double before the topic must grow.
  const partitions = 2 * scorerReplicas * options.scorerConcurrency;
  const s3 = figures.s3;
  return {
    rowsPerSecond,
    scorer: { cores: cores(cpu.scorersTotal), replicas: scorerReplicas },
    ingest: {
      cores: cores(cpu.ingest),
      replicas: replicasFor(cores(cpu.ingest), MIN_REPLICAS.ingest),
      // One job is split by one process and assembled by one process: at most one core each.
      perJobCeilingRowsPerSecond: cpu.ingest > 0 ? MILLION / cpu.ingest : Infinity,
    },
    api: { cores: cores(cpu.api) },
    kafka: {
      brokerCores: cores(cpu.kafka),
      // A chunk message and its progress report per chunk.
      messagesPerSecond: (2 * rowsPerSecond) / options.chunkRows,
      partitions,
    },
    s3: {
      requestsPerSecond: (rowsPerSecond * s3.requestsPerMillionRows) / MILLION,
      megabytesPerSecond: (rowsPerSecond * s3.bytesPerMillionRows) / MILLION / 1e6,
      usdPerMillionRows: (s3.requestsPerMillionRows / 1_000) * options.s3UsdPerThousandRequests,
      selfHostedCores: cores(cpu.s3proxy),
    },
    postgres: {
      cores: cores(cpu.postgres),
      statementsPerSecond: (rowsPerSecond * figures.postgresStatementsPerMillionRows) / MILLION,
    },
    redis: { cores: cores(cpu.redis) },
  };
}
