export { MemoryRowBus } from './memory.row-bus';
export { KafkaRowBus, type KafkaRowBusOptions } from './kafka.row-bus';
export { MemoryJobQueue } from './memory.job-queue';
export { BullJobQueue, type BullJobQueueOptions } from './bull.job-queue';
export { LocalBlobStore } from './local.blob-store';
export { S3BlobStore, type S3BlobStoreOptions } from './s3.blob-store';
export { createRowBus, createJobQueue, createBlobStore } from './port.factory';
