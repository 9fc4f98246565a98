import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { ResponseRecorder } from './request-hooks';

interface Completed {
  reqId: string;
  route: string;
  method: string;
  status: number;
  latency_ms: number;
}

/** Entries written per turn of the event loop at most; the rest wait for the next turn. */
const MAX_BATCH = 2_000;

/**
 * One access line per request ("request completed": route, method, status, latency, request
 * id), at info. A request only appends a few fields to a buffer; the lines are formatted and
 * written together after the current I/O phase (setImmediate), outside every request's path.
 * Lines still buffered when the process dies unexpectedly are lost, as pino's own buffer.
 * Returns the onResponse recorder (null when info is off); the buffer is flushed on close.
 */
export function accessLogRecorder(fastify: FastifyInstance, root: Logger): ResponseRecorder | null {
  if (!root.isLevelEnabled('info')) return null;
  // The fields above are the whole line and none is a secret (the route is the pattern, never
  // the URL with its query), so the line skips the root logger's redaction: applied to every
  // field of every line, it allocated about a third of all a single call allocated.
  const logger = root.child({}, { redact: [] });
  let buffer: Completed[] = [];
  const flush = (): void => {
    const batch = buffer.length > MAX_BATCH ? buffer.splice(0, MAX_BATCH) : buffer;
    if (batch === buffer) buffer = [];
    for (const entry of batch) logger.info(entry, 'request completed');
    if (buffer.length > 0) setImmediate(flush);
  };
  fastify.addHook('onClose', (_instance, done) => {
    flush();
    done();
  });
  return (request, reply) => {
    if (buffer.length === 0) setImmediate(flush);
    buffer.push({
      reqId: request.id,
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: reply.statusCode,
      latency_ms: Math.round(reply.elapsedTime * 100) / 100,
    });
  };
}
