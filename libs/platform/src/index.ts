export { CoreModule, type CoreResources } from './core.module';
export { LOGGER, METRICS } from './tokens';
export * from './engines.tokens';
export {
  CHECK_TIMEOUT_MS,
  DATABASE_CHECK,
  HealthRegistry,
  reportedOnly,
  type CheckResult,
  type ResourceCheck,
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
export { StartGuard, StartStopped } from './runtime/start-guard';
export { startApp } from './runtime/start-app';
export { listenError, listenOn, type Listenable } from './runtime/listen';
