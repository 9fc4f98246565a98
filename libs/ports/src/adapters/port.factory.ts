import { join } from 'node:path';
import type { Logger } from 'pino';
import type { AppConfig } from '@verity/config';
import type { BlobStore } from '../ports/blob-store.port';
import type { JobQueue } from '../ports/job-queue.port';
import type { RowBus } from '../ports/row-bus.port';
import { BullJobQueue } from './bull.job-queue';
import { KafkaRowBus } from './kafka.row-bus';
import { LocalBlobStore } from './local.blob-store';
import { MemoryJobQueue } from './memory.job-queue';
import { MemoryRowBus } from './memory.row-bus';
import { S3BlobStore } from './s3.blob-store';

/** Config is validated at boot (refineBatch), so a missing setting here is a programming error. */
function required<T>(value: T | undefined, name: string): T {
  if (value === undefined) throw new Error(`${name} is required by the chosen backend`);
  return value;
}

/** The RowBus chosen by ROW_BUS (memory | kafka); kafkajs logs through `logger`. */
export function createRowBus(
  config: Pick<
    AppConfig,
    | 'ROW_BUS'
    | 'ROW_BUS_MEMORY_MAX_BYTES'
    | 'KAFKA_BROKERS'
    | 'KAFKA_CLIENT_ID'
    | 'KAFKA_REPLICATION_FACTOR'
  >,
  logger?: Logger,
): RowBus {
  switch (config.ROW_BUS) {
    case 'memory':
      return new MemoryRowBus(config.ROW_BUS_MEMORY_MAX_BYTES);
    case 'kafka':
      return new KafkaRowBus({
        brokers: config.KAFKA_BROKERS,
        clientId: config.KAFKA_CLIENT_ID,
        replicationFactor: config.KAFKA_REPLICATION_FACTOR,
        logger,
      });
  }
}

/**
 * Bull locks of our workers. A live worker renews its job's lock every lockDuration / 2; a
 * stalled check (every stalledInterval, in every worker process) notes the active jobs, and
 * the next one moves those whose lock is gone back to waiting. So the job of a worker killed
 * mid-split is taken over by another (or the restarted) ingest about lockDuration + 2 ×
 * stalledInterval = 8 s after the kill, instead of up to 90 s with Bull's 30 s / 30 s. Splits
 * resume from their checkpoint, so a live worker that loses its lock (an event loop blocked
 * for 4 s) costs at most a duplicate of its in-flight batch.
 */
export const QUEUE_LOCK_SETTINGS = { lockDuration: 4_000, stalledInterval: 2_000 } as const;

/** The JobQueue chosen by JOB_QUEUE (memory | bull on REDIS_URL). */
export function createJobQueue(
  config: Pick<AppConfig, 'JOB_QUEUE' | 'REDIS_URL'>,
  bull: Omit<Partial<ConstructorParameters<typeof BullJobQueue>[0]>, 'redisUrl'> = {},
): JobQueue {
  switch (config.JOB_QUEUE) {
    case 'memory':
      return new MemoryJobQueue();
    case 'bull':
      return new BullJobQueue({
        settings: QUEUE_LOCK_SETTINGS,
        ...bull,
        redisUrl: required(config.REDIS_URL, 'REDIS_URL'),
      });
  }
}

/** The BlobStore chosen by BLOB_STORE (local: `<VERITY_HOME>/blobs` | s3). */
export function createBlobStore(
  config: Pick<
    AppConfig,
    | 'BLOB_STORE'
    | 'VERITY_HOME'
    | 'S3_ENDPOINT'
    | 'S3_REGION'
    | 'S3_BUCKET'
    | 'S3_ACCESS_KEY_ID'
    | 'S3_SECRET_ACCESS_KEY'
    | 'S3_FORCE_PATH_STYLE'
  >,
): BlobStore {
  switch (config.BLOB_STORE) {
    case 'local':
      return new LocalBlobStore(join(config.VERITY_HOME, 'blobs'));
    case 's3':
      return new S3BlobStore({
        bucket: required(config.S3_BUCKET, 'S3_BUCKET'),
        region: config.S3_REGION,
        endpoint: config.S3_ENDPOINT,
        accessKeyId: config.S3_ACCESS_KEY_ID,
        secretAccessKey: config.S3_SECRET_ACCESS_KEY,
        forcePathStyle: config.S3_FORCE_PATH_STYLE,
      });
  }
}
