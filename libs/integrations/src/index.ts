// Adapters that give the engines their I/O: DNS, SMTP, HLR providers, data sets.
export * from './dns';
export * from './smtp';
export * from './hlr';
export * from './phone-data';
export * from './ip-data';
