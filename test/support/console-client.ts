import type { TestResponse } from './http-client';

/**
 * A browser-like client of /console/api for HTTP-level tests: keeps the session cookie, sends
 * the same Origin a browser would and the session's CSRF token on state-changing requests.
 */
export class ConsoleClient {
  /** The cookies the server set, by name (the session's, the device cookie). */
  readonly cookies = new Map<string, string>();
  csrf = '';

  /** The cookies as the browser sends them (`verity_console=…; verity_device=…`), or ''. */
  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  constructor(
    readonly baseUrl: string,
    readonly origin: string = baseUrl,
  ) {}

  /** Signs in with the token of a one-time link (`…/sign-in#token=…`). */
  async redeem(link: string): Promise<TestResponse> {
    const token = new URL(link).hash.replace('#token=', '');
    return this.send('POST', '/auth/link', { token });
  }

  login(email: string, password: string): Promise<TestResponse> {
    return this.send('POST', '/auth/login', { email, password });
  }

  get(path: string): Promise<TestResponse> {
    return this.send('GET', path);
  }

  post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('POST', path, body, headers);
  }

  delete(path: string): Promise<TestResponse> {
    return this.send('DELETE', path);
  }

  async send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse> {
    const init: RequestInit = {
      method,
      headers: {
        ...(method !== 'GET' ? { origin: this.origin, 'x-csrf-token': this.csrf } : {}),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...(body !== undefined && !(body instanceof FormData)
          ? { 'content-type': 'application/json' }
          : {}),
        ...headers,
      },
      body: body instanceof FormData ? body : body === undefined ? undefined : JSON.stringify(body),
    };
    const res = await fetch(`${this.baseUrl}/console/api${path}`, init);
    for (const setCookie of res.headers.getSetCookie()) {
      const pair = setCookie.split(';')[0];
      const eq = pair.indexOf('=');
      const [name, value] = [pair.slice(0, eq), pair.slice(eq + 1)];
      if (value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const text = await res.text();
    const json =
      (res.headers.get('content-type') ?? '').includes('json') && text ? JSON.parse(text) : text;
    if (json && typeof json === 'object' && typeof json.csrf_token === 'string')
      this.csrf = json.csrf_token;
    return { status: res.status, headers: res.headers, body: json };
  }
}
