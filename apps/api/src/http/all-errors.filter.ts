import { Catch, Inject, Optional, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { infraOutageOf, UpstreamUnavailableError, VerityError } from '@verity/common';
import type { VerityMetrics } from '@verity/observability';
import { METRICS } from '@verity/platform';
import { sendError } from './send-error';

/**
 * The one place errors raised in Nest (guards, pipes, controllers, and Fastify's body-parser
 * errors that Nest wraps) become HTTP responses. Known errors keep their code and message;
 * anything else is `internal_error` with the request id, and its stack goes only to the log.
 * Errors Fastify raises before Nest sees the request are in `framework-errors.ts`.
 */
@Catch()
export class AllErrorsFilter implements ExceptionFilter {
  constructor(@Optional() @Inject(METRICS) private readonly metrics: VerityMetrics | null = null) {}

  catch(error: unknown, host: ArgumentsHost): void {
    if (error instanceof VerityError && error.code === 'service_unavailable') {
      const dependency = error instanceof UpstreamUnavailableError ? error.dependency : 'other';
      this.metrics?.upstreamUnavailable.inc({ dependency });
    } else {
      // PostgreSQL, S3, Redis or Kafka unreachable: a 503 too (see mapError).
      const outage = infraOutageOf(error);
      if (outage !== null)
        this.metrics?.upstreamUnavailable.inc({
          dependency: outage === 'network' ? 'other' : outage,
        });
    }
    const http = host.switchToHttp();
    sendError(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), error);
  }
}
