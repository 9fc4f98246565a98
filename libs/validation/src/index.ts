// Validation engines: plain TypeScript, no Nest, no I/O of their own (DNS, HLR, data sets are injected).
export * from './email';
export * from './phone';
export * from './ip';
export * from './verify';
export * from './test-mode';
export { type SignalKind } from './verify/fraud.types';
