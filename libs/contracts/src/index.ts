export * from './results';
export * from './batch';
export * from './credits';
