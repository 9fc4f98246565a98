/** Nest token for the process's VerityMetrics, or null when METRICS_ENABLED=false. */
export const METRICS = Symbol.for('verity.metrics');

/** Nest token for the process's pino logger, or null (libraries that log on their own use it). */
export const LOGGER = Symbol.for('verity.logger');
