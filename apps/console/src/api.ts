/** The console's only way to the server: JSON over /console/api with the session cookie. */

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

export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`${BASE}/api${path}`, {
    method,
    headers,
    body: payload,
    credentials: 'same-origin',
  });
  if (response.status === 204) return undefined as T;
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
  return json as T;
}
