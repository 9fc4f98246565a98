import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import type { Logger } from 'pino';
import type { AppConfig } from '@verity/config';
import {
  CoreModule,
  EnginesModule,
  HealthRegistry,
  HttpConnections,
  PinoNestLogger,
  type CheckResult,
  type CoreResources,
  type Engines,
} from '@verity/platform';
import { ApiModule } from './api.module';
import { API_REPORT_ONLY } from './api.readiness';
import { registerApiCallHook } from './auth/api-call.hook';
import { registerConsoleStatic } from './console/console-static';
import { registerMultipart } from './batch/multipart.setup';
import { accessLogRecorder } from './http/access-log';
import { bodyDeadlines } from './http/body-deadlines';
import { capConnectionsPerAddress } from './http/connection-cap';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors';
import { registerRequestHooks, type ResponseRecorder } from './http/request-hooks';
import { requestIdOf } from './http/request-id';
import { lazyRequestLogger } from './http/request-logger';
import { httpMetricsRecorder } from './metrics/http-metrics.recorder';
import { setupOpenApi } from './openapi/openapi.setup';

export interface ApiAppOptions {
  resources: CoreResources;
  engines: Engines;
  logger: Logger;
  /** Further modules hosted by the same process (the all-in-one adds ingest and scorer). */
  modules?: (Type | DynamicModule)[];
  /** Extra readiness checks shown by /readyz (e.g. the IP data sets). */
  checks?: Record<string, () => Promise<CheckResult>>;
}

/** Builds the HTTP API on Fastify; the caller calls `listen`. */
export async function createApiApp(options: ApiAppOptions): Promise<NestFastifyApplication> {
  const { config } = options.resources;

  @Module({
    imports: [
      CoreModule.forRoot({ ...options.resources, logger: options.logger }),
      EnginesModule.forRoot(options.engines),
      ApiModule,
      ...(options.modules ?? []),
    ],
  })
  class ApiRootModule {}

  const adapter = new FastifyAdapter({
    loggerInstance: options.logger,
    // One access line per request comes from accessLogRecorder (route, status, latency).
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    childLoggerFactory: lazyRequestLogger,
    genReqId: requestIdOf,
    requestIdHeader: false,
    // X-Forwarded-For/-Proto count only from the configured proxies (none by default).
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    frameworkErrors,
    clientErrorHandler,
    return503OnClosing: false, // registerRequestHooks answers in the error shape
  });
  const app = await NestFactory.create<NestFastifyApplication>(ApiRootModule, adapter, {
    logger: new PinoNestLogger(options.logger),
    // Nest would add a form-urlencoded parser; Fastify's own JSON parser is all we accept.
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // At shutdown the HTTP server closes without waiting for connections that carry no request
  // (a browser's spare connection included); requests in flight still get their answer.
  capConnectionsPerAddress(fastify.server, config);
  const connections = new HttpConnections(fastify.server);
  fastify.addHook('preClose', (done) => {
    connections.closeIdle();
    done();
  });
  // JSON only: any other body type is refused (415 → validation_error) instead of reaching
  // a route as a string.
  fastify.removeContentTypeParser(['text/plain']);
  registerMultipart(fastify);
  registerApiCallHook(app);
  await registerConsoleStatic(app);
  const { metrics } = options.resources;
  const recorders = [
    accessLogRecorder(fastify, options.logger),
    metrics ? httpMetricsRecorder(metrics) : null,
  ].filter((recorder): recorder is ResponseRecorder => recorder !== null);
  registerRequestHooks(fastify, recorders, bodyDeadlines(fastify, config));
  const health = app.get(HealthRegistry);
  for (const [name, check] of Object.entries(options.checks ?? {})) health.register(name, check);
  health.reportOnly(API_REPORT_ONLY);
  setupOpenApi(app);
  return app;
}

/**
 * Fastify's `trustProxy` for TRUST_PROXY. A hop count becomes the function it stands for
 * (trust the first `hops` forwarders, as proxy-addr does for a number), since Fastify's types
 * no longer take a number.
 */
function trustProxyOption(
  trust: AppConfig['TRUST_PROXY'],
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust !== 'number') return trust;
  return (_address, hop) => hop < trust;
}
