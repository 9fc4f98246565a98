import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VerityError } from '@verity/common';
import { errorBody, statusOf } from './error-body';
import { sendError } from './send-error';

/**
 * Fastify's `frameworkErrors`: errors found while routing, before any hook or Nest runs.
 * A path parameter longer than the router allows cannot be an id of ours (404, as any
 * unknown id), and a path that is not valid percent-encoding is a bad request.
 */
export function frameworkErrors(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const code = (error as { code?: string }).code;
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(request, reply, new VerityError('not_found', 'no such resource'));
  }
  if (code === 'FST_ERR_BAD_URL') {
    return sendError(
      request,
      reply,
      new VerityError('validation_error', 'the request path is not valid percent-encoding'),
    );
  }
  sendError(request, reply, error);
}

/**
 * node:http's `clientError`: a request it could not parse (bad header token, headers over
 * the size limit, a request that timed out), answered on the raw socket because no request
 * object exists yet. The body still has the error shape.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? (['headers_too_large', 'request headers are too large'] as const)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? (['request_timeout', 'the request was not received in time'] as const)
        : (['validation_error', 'malformed HTTP request'] as const);
  const status = statusOf(code);
  const body = JSON.stringify(errorBody(code, message));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
