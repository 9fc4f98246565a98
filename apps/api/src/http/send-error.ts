import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorBody, statusOf } from './error-body';
import { mapError } from './error-mapping';

/** Writes `error` to `reply` in the error shape (docs/api.md); internal errors go to the log with their stack. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: unknown): void {
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
