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
  config: Pick<AppConfig, 'ROW_BUS' | 'KAFKA_BROKERS' | 'KAFKA_CLIENT_ID'>,
  logger?: Logger,
): RowBus {
  switch (config.ROW_BUS) {
    case 'memory':
      return new MemoryRowBus();
    case 'kafka':
      return new KafkaRowBus({
        brokers: config.KAFKA_BROKERS,
        clientId: config.KAFKA_CLIENT_ID,
        logger,
      });
  }
}

/** The JobQueue chosen by JOB_QUEUE (memory | bull on REDIS_URL). */
export function createJobQueue(
  config: Pick<AppConfig, 'JOB_QUEUE' | 'REDIS_URL'>,
  bull: Omit<Partial<ConstructorParameters<typeof BullJobQueue>[0]>, 'redisUrl'> = {},
): JobQueue {
  switch (config.JOB_QUEUE) {
    case 'memory':
      return new MemoryJobQueue();
    case 'bull':
      return new BullJobQueue({ ...bull, redisUrl: required(config.REDIS_URL, 'REDIS_URL') });
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
