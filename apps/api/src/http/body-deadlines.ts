import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { VerityError } from '@verity/common';
import type { AppConfig } from '@verity/config';

/** A body being received, and the rule it must keep. */
interface BodyWatch {
  raw: IncomingMessage;
  startedAt: number;
  /** Bytes the socket had read when the request began (keep-alive: earlier requests too). */
  bytesAtStart: number;
  upload: boolean;
}

/** How often bodies in flight are checked: a cut comes at most this late. */
const CHECK_EVERY_MS = 1_000;

/**
 * The deadlines of request bodies on every route, so a body trickled a byte at a time cannot
 * hold a connection (and a file descriptor) for ever:
 * - a JSON body must have arrived completely BODY_TIMEOUT_MS after its request began;
 * - an upload (multipart) must average BODY_MIN_BYTES_PER_SECOND once BODY_IDLE_TIMEOUT_MS has
 *   passed (besides the upload's own idle cut, batch-upload.service.ts).
 * Either is cut with 408 request_timeout and `Connection: close`. One timer checks every body in
 * flight each second instead of a timer per request: the single calls pay one array push.
 * Returns what the onRequest hook calls with each request (registerRequestHooks).
 */
export function bodyDeadlines(
  fastify: FastifyInstance,
  config: Pick<AppConfig, 'BODY_TIMEOUT_MS' | 'BODY_MIN_BYTES_PER_SECOND' | 'BODY_IDLE_TIMEOUT_MS'>,
): (raw: IncomingMessage) => void {
  let watched: BodyWatch[] = [];
  const check = () => {
    const now = performance.now();
    watched = watched.filter((watch) => {
      const { raw } = watch;
      if (raw.complete || raw.destroyed) return false;
      const elapsed = now - watch.startedAt;
      const late = watch.upload
        ? elapsed >= config.BODY_IDLE_TIMEOUT_MS &&
          received(watch) < (elapsed / 1000) * config.BODY_MIN_BYTES_PER_SECOND
        : elapsed >= config.BODY_TIMEOUT_MS;
      if (!late) return true;
      cut(raw, watch.upload ? slowUpload(config) : lateBody(config));
      return false;
    });
  };
  const timer = setInterval(check, CHECK_EVERY_MS);
  timer.unref();
  fastify.addHook('onClose', (_instance, done) => {
    clearInterval(timer);
    done();
  });
  return (raw) => {
    if (!hasBody(raw)) return;
    watched.push({
      raw,
      startedAt: performance.now(),
      bytesAtStart: raw.socket.bytesRead,
      upload: (raw.headers['content-type'] ?? '').startsWith('multipart/'),
    });
  };
}

function hasBody(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function received(watch: BodyWatch): number {
  return watch.raw.socket.bytesRead - watch.bytesAtStart;
}

/**
 * Ends the body with `error`: through the reader of the body when there is one (Fastify's JSON
 * parser, the multipart parser), which then answers 408; otherwise nobody waits for the body
 * and the connection is simply closed.
 */
function cut(raw: IncomingMessage, error: VerityError): void {
  if (raw.listenerCount('error') > 0) raw.emit('error', error);
  else raw.socket.destroy();
}

function lateBody(config: Pick<AppConfig, 'BODY_TIMEOUT_MS'>): VerityError {
  return new VerityError(
    'request_timeout',
    `the request body did not arrive within ${config.BODY_TIMEOUT_MS} ms; the request was cut`,
    { Connection: 'close' },
  );
}

function slowUpload(config: Pick<AppConfig, 'BODY_MIN_BYTES_PER_SECOND'>): VerityError {
  return new VerityError(
    'request_timeout',
    `the upload arrived slower than ${config.BODY_MIN_BYTES_PER_SECOND} bytes a second; it was cut`,
    { Connection: 'close' },
  );
}
