// Public entry of @verity/observability.
export * from './metrics';
