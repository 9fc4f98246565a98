export * from './ports';
export * from './adapters';
export * from './batch-ports.module';
export * from './csv';
export * from './signing';
export * from './webhooks';
export * from './jobs';
export * from './workers';
