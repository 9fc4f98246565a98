export * from './metric-labels';
export * from './metric-catalogue';
export * from './metric-sources';
export * from './create-metrics';
