/** The console's only way to the server: JSON over /console/api with the session cookie. */

import {
  consoleRequest,
  type ConsoleArgs,
  type ConsoleResponse,
  type ConsoleRouteName,
} from '@verity/contracts/console-routes';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfter: string | null,
  ) {
    super(message);
  }
}

let csrfToken = '';

/** Set after sign-in and on every session read; sent on each state-changing request. */
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

export const BASE = '/console';

/**
 * Calls a route of the console's route table (libs/contracts/src/console-routes.ts): its
 * parameters, query and body are checked against the table, and so is what the caller does with
 * the answer.
 */
export async function api<N extends ConsoleRouteName>(
  route: N,
  ...args: ConsoleArgs<N>
): Promise<ConsoleResponse<N>> {
  const { method, url, body } = consoleRequest(route, ...args);
  const headers: Record<string, string> = {};
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const response = await fetch(url, { method, headers, body: payload, credentials: 'same-origin' });
  if (response.status === 204) return undefined as ConsoleResponse<N>;
  const text = await response.text();
  const json: unknown = text ? JSON.parse(text) : undefined;
  if (!response.ok) {
    const error = (json as { error?: { code?: string; message?: string } } | undefined)?.error;
    throw new ApiError(
      response.status,
      error?.code ?? 'internal_error',
      error?.message ?? `the server answered ${response.status}`,
      response.headers.get('retry-after'),
    );
  }
  // The one cast from the wire: the server's handler answers the same type (@ConsoleRoute).
  return json as ConsoleResponse<N>;
}
