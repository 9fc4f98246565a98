import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { VerityError } from '@verity/common';
import { sendError } from './send-error';

/**
 * Work done once a response has been sent: the access line, the HTTP metrics. `route` is the
 * route pattern (`/v1/batch/:jobId`, never the URL), or `unmatched`.
 */
export type ResponseRecorder = (
  request: FastifyRequest,
  reply: FastifyReply,
  route: string,
) => void;

/**
 * The API's per-request work outside the routes, as one hook per phase (every hook is a step
 * of Fastify's hook runner on every call, the single calls included):
 * - onRequest: the X-Request-Id header, `watchBody` (the body deadlines, body-deadlines.ts), and
 *   once shutdown has begun, a 503 in the error shape for requests read after it (pipelined or
 *   on a kept-alive connection; Fastify's own `return503OnClosing` answer is not in that
 *   shape). Requests already in flight finish.
 * - onResponse: each of `recorders`, in order.
 */
export function registerRequestHooks(
  fastify: FastifyInstance,
  recorders: readonly ResponseRecorder[],
  watchBody: (raw: IncomingMessage) => void,
): void {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    watchBody(request.raw);
    if (!closing) return done();
    void reply.header('Connection', 'close');
    sendError(
      request,
      reply,
      new VerityError('service_unavailable', 'the server is shutting down; retry'),
    );
  });
  if (recorders.length === 0) return;
  fastify.addHook('onResponse', (request, reply, done) => {
    // Read once: Fastify builds a new routeOptions object on every read.
    const route = request.routeOptions.url ?? 'unmatched';
    for (const record of recorders) record(request, reply, route);
    done();
  });
}
