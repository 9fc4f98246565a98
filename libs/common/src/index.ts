export * from './errors';
export * from './startup.error';
