export * from './errors';
export * from './startup.error';
export * from './dependency-outage';
export * from './backoff';
export * from './transaction-conflict';
export * from './counted';
export * from './map-bounded';
