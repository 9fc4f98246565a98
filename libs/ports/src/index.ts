// Generic ports of the batch engine (row bus, job queue, blob store), their memory and real
// adapters, and the module that chooses them from the configuration.
export * from './ports';
export * from './adapters';
export * from './batch-ports.module';
export { REDELIVERY_BASE_MS, REDELIVERY_MAX_MS } from './adapters/redelivery';
