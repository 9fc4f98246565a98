import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import type { Logger } from 'pino';
import { BatchPortsModule } from '@verity/ports';
import {
  CoreModule,
  EnginesModule,
  HealthController,
  HealthRegistry,
  PinoNestLogger,
  type CheckResult,
  type CoreResources,
  type Engines,
} from '@verity/platform';

/** What a batch worker process (ingest, scorer) is made of. */
export interface WorkerAppOptions {
  resources: CoreResources;
  logger: Logger;
  /** The worker's own modules (IngestModule, ScorerModule). */
  modules: (Type | DynamicModule)[];
  /** Only the scorer validates rows. */
  engines?: Engines;
  /** Extra readiness checks shown by /readyz (e.g. the IP data sets). */
  checks?: Record<string, () => Promise<CheckResult>>;
  /** Readiness checks shown but not required (HealthRegistry.reportOnly); default: none. */
  reportOnly?: readonly string[];
}

/**
 * A worker deployable: no API routes, only /healthz, /readyz and /metrics over HTTP (the same
 * controller as the API's) so Kubernetes probes and Prometheus treat every process alike.
 */
export async function createWorkerApp(options: WorkerAppOptions): Promise<NestFastifyApplication> {
  @Module({ controllers: [HealthController] })
  class WorkerHttpModule {}

  @Module({
    imports: [
      CoreModule.forRoot({ ...options.resources, logger: options.logger }),
      ...(options.engines ? [EnginesModule.forRoot(options.engines)] : []),
      BatchPortsModule.forRoot(),
      WorkerHttpModule,
      ...options.modules,
    ],
  })
  class WorkerRootModule {}

  const app = await NestFactory.create<NestFastifyApplication>(
    WorkerRootModule,
    new FastifyAdapter({
      loggerInstance: options.logger,
      logController: new LogController({ disableRequestLogging: true }),
    }),
    { logger: new PinoNestLogger(options.logger) },
  );
  const health = app.get(HealthRegistry);
  for (const [name, check] of Object.entries(options.checks ?? {})) health.register(name, check);
  health.reportOnly(options.reportOnly ?? []);
  return app;
}
