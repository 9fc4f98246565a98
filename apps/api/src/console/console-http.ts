import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VerityError } from '@verity/common';

export const SESSION_COOKIE = 'verity_console';
export const CSRF_HEADER = 'x-csrf-token';

/** A cookie of the request, or undefined. */
export function readCookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/**
 * The session cookie: HttpOnly (no script reads it), SameSite=Lax (not sent on cross-site
 * POSTs), Secure when the console is served over https, scoped to /console.
 */
export function setSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  value: string,
  maxAgeSeconds: number,
): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  void reply.header(
    'Set-Cookie',
    `${SESSION_COOKIE}=${value}; Path=/console; HttpOnly; SameSite=Lax; Max-Age=${maxAgeSeconds}${secure}`,
  );
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  setSessionCookie(request, reply, '', 0);
}

export function isStateChanging(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}

/**
 * CSRF, first half: a state-changing request must carry an Origin header naming this server
 * (or CONSOLE_URL's origin). Browsers always send Origin on POST/DELETE, so a form posted
 * from another site is refused here before anything runs.
 */
export function assertSameOrigin(request: FastifyRequest, consoleUrl: string): void {
  const origin = request.headers.origin;
  const allowed = [`${request.protocol}://${request.host}`, new URL(consoleUrl).origin];
  if (typeof origin !== 'string' || !allowed.includes(origin))
    throw new VerityError(
      'forbidden',
      'cross-site request refused: Origin does not match the console',
    );
}

/** CSRF, second half: the session's token in the X-CSRF-Token header. */
export function assertCsrfToken(request: FastifyRequest, expected: string): void {
  const sent = request.headers[CSRF_HEADER];
  const a = Buffer.from(typeof sent === 'string' ? sent : '');
  const b = Buffer.from(expected);
  if (a.length !== b.length || !timingSafeEqual(a, b))
    throw new VerityError('forbidden', 'missing or wrong CSRF token: reload the console');
}
