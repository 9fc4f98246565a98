import type { FastifyRequest } from 'fastify';

/**
 * Where links handed to this client point when PUBLIC_URL is unset (the embedded default):
 * the local address and port the request arrived on. Never the Host or X-Forwarded-Host
 * header, which the client chooses: a signed link must not name a host of its choosing.
 */
export function localBaseUrl(request: FastifyRequest): string {
  const { localAddress, localPort } = request.raw.socket;
  const host = localAddress?.includes(':') ? `[${localAddress}]` : (localAddress ?? '127.0.0.1');
  return `http://${host.replace(/^\[::ffff:([\d.]+)\]$/, '$1')}:${localPort}`;
}

/** The base URL clients reach the API at: PUBLIC_URL, else `localBaseUrl`; no trailing slash. */
export function publicBaseUrl(publicUrl: string | undefined, request: FastifyRequest): string {
  return (publicUrl ?? localBaseUrl(request)).replace(/\/+$/, '');
}
