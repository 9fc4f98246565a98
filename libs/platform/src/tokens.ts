/** Nest token for the process's VerityMetrics, or null when METRICS_ENABLED=false. */
export const METRICS = Symbol.for('verity.metrics');
