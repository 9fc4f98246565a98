export { CoreModule, type CoreResources } from './core.module';
export { LOGGER, METRICS } from './tokens';
export * from './engines.tokens';
export {
  CHECK_TIMEOUT_MS,
  DATABASE_CHECK,
  HealthRegistry,
  type CheckResult,
  type ReadinessReport,
  type ReportedCheck,
} from './health/health.registry';
export { EnginesModule } from './engines.module';
export { SMTP_OUTBOUND_CHECK, smtpMetricEvents } from './smtp-probe.wiring';
export { createLogger, loggerOptions, PinoNestLogger, REDACTED_PATHS } from './logging/logger';
export { buildEngines, type EnginesRuntime } from './runtime/engines.runtime';
export { openDatabaseRuntime, type DatabaseRuntime } from './runtime/database.runtime';
export { exitOnSignal } from './runtime/shutdown';
export { HealthController } from './health/health.controller';
export {
  openProcessRuntime,
  closeOnSignal,
  runMain,
  type ProcessRuntime,
} from './runtime/process.runtime';
export { HttpConnections } from './runtime/http-connections';
export { listenError, listenOn, type Listenable } from './runtime/listen';
