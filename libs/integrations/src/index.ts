// Adapters that give the engines their I/O: DNS, SMTP, HLR providers, data sets; and the Redis
// client of every Redis adapter.
export * from './dns';
export * from './smtp';
export * from './hlr';
export * from './phone-data';
export * from './ip-data';
export * from './redis';
