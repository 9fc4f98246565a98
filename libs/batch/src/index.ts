export * from './csv';
export * from './signing';
export * from './webhooks';
export * from './jobs';
export * from './workers';
