import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, statusOf } from './error-body';
import { mapError } from './error-mapping';

/**
 * The one place errors become HTTP responses. Known errors keep their code and message;
 * anything else is `internal_error` with the request id, and its stack goes only to the log.
 * Nest routes Fastify's own errors (body parsing, limits) here too, as HttpExceptions.
 */
@Catch()
export class AllErrorsFilter implements ExceptionFilter {
  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendError(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>(), error);
  }
}

/** Writes `error` to `reply` in the spec's shape. */
function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  const mapped = mapError(error);
  if (mapped.internal) {
    request.log.error(
      { err: error },
      `internal error on ${request.method} ${request.routeOptions?.url ?? request.url}`,
    );
  }
  const message = mapped.internal ? `internal error (request id ${request.id})` : mapped.message;
  void reply
    .status(statusOf(mapped.code))
    .headers(mapped.headers)
    .type('application/json; charset=utf-8')
    .send(errorBody(mapped.code, message, mapped.internal ? request.id : undefined));
}
