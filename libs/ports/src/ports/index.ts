export * from './row-bus.port';
export * from './job-queue.port';
export * from './blob-store.port';
