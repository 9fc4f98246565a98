export * from './results';
export * from './batch';
export * from './credits';
export * from './requests';
export * from './responses';
