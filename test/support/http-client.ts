/** A JSON answer as tests see it. */
export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

/** Minimal HTTP client for e2e tests against a loopback base URL. */
export class TestClient {
  constructor(
    readonly baseUrl: string,
    private readonly apiKey?: string,
  ) {}

  withKey(apiKey: string | undefined): TestClient {
    return new TestClient(this.baseUrl, apiKey);
  }

  get(path: string, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('GET', path, undefined, headers);
  }

  post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse> {
    return this.send('POST', path, body, headers);
  }

  delete(path: string): Promise<TestResponse> {
    return this.send('DELETE', path);
  }

  /** Sends a raw body with an explicit content type (malformed JSON, wrong types). */
  async raw(
    method: string,
    path: string,
    body: string,
    contentType: string,
  ): Promise<TestResponse> {
    return this.finish(
      await fetch(this.baseUrl + path, {
        method,
        body,
        headers: { ...this.keyHeader(), 'content-type': contentType },
      }),
    );
  }

  private async send(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse> {
    const init: RequestInit = { method, headers: { ...this.keyHeader(), ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    return this.finish(await fetch(this.baseUrl + path, init));
  }

  private keyHeader(): Record<string, string> {
    return this.apiKey ? { 'x-api-key': this.apiKey } : {};
  }

  private async finish(response: Response): Promise<TestResponse> {
    const text = await response.text();
    let body: unknown = text;
    if ((response.headers.get('content-type') ?? '').includes('json') && text.length > 0)
      body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body };
  }
}
