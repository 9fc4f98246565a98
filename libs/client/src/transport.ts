import {
  apiError,
  RateLimitedError,
  ServiceUnavailableError,
  VerityApiError,
  VerityConnectionError,
} from './errors';
import { parseRetryAfter, retryDelayMs, type RetryEvent } from './retry';
import { CLIENT_VERSION } from './version';

/** A request body that can be produced again for every attempt. */
export interface UploadBody {
  contentType: string;
  /** A fresh stream of the bytes; called once per attempt. */
  open(): AsyncIterable<Uint8Array>;
  /** False when the bytes come from a caller's stream: such a request is never retried. */
  replayable: boolean;
}

export interface RequestSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** A path under the base URL, or an absolute URL (download links). */
  url: string;
  json?: unknown;
  upload?: UploadBody;
  headers?: Record<string, string>;
  /** Safe to send twice (GET, DELETE, or a POST carrying an Idempotency-Key). */
  idempotent: boolean;
  /** Download links authenticate by their signature: no X-Api-Key. */
  anonymous?: boolean;
  signal?: AbortSignal;
}

/** A 2xx answer whose body the caller reads, then calls `release`. */
export interface Answer {
  response: Response;
  release(): void;
}

export interface TransportOptions {
  apiKey: string;
  baseUrl: string;
  timeoutMs: number;
  maxRetries: number;
  fetch: typeof fetch;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  now: () => number;
  onRetry?: (event: RetryEvent) => void;
}

class AttemptTimeout extends Error {}

/**
 * HTTP with the API's retry rules: 429, and a 503 that carries Retry-After, are retried after
 * 1 s, 2 s, 4 s (or Retry-After when longer); a 503 without it names no passing outage (no HLR
 * provider on the server, say) and is thrown at once. A broken connection or a timeout is
 * retried only when the request is idempotent, because a POST that reached the server may
 * already have been charged.
 */
export class Transport {
  constructor(private readonly options: TransportOptions) {}

  get baseUrl(): string {
    return this.options.baseUrl;
  }

  async json<T>(spec: RequestSpec): Promise<T> {
    const answer = await this.send(spec);
    try {
      if (answer.response.status === 204) return undefined as T;
      return (await answer.response.json()) as T;
    } finally {
      answer.release();
    }
  }

  async send(spec: RequestSpec): Promise<Answer> {
    const { maxRetries, sleep, onRetry } = this.options;
    const canReplay = spec.upload === undefined || spec.upload.replayable;
    for (let retry = 0; ; retry++) {
      let event: RetryEvent['reason'];
      let waitMs: number;
      try {
        const answer = await this.attempt(spec);
        const { response } = answer;
        if (response.ok) return answer;
        const error = await readError(response, this.options.now());
        answer.release();
        const retryAfter = retryAfterOf(error);
        if (!isRetryable(response.status, retryAfter) || retry >= maxRetries || !canReplay)
          throw error;
        waitMs = retryDelayMs(retry, retryAfter);
        event = { kind: 'status', status: response.status, code: error.code };
      } catch (error) {
        if (error instanceof VerityApiError) throw error;
        if (spec.signal?.aborted) throw spec.signal.reason;
        const message =
          error instanceof AttemptTimeout ? error.message : describeNetworkError(error);
        if (!spec.idempotent || !canReplay || retry >= maxRetries)
          throw new VerityConnectionError(
            `${spec.method} ${pathOf(spec.url)}: ${message}`,
            new URL(this.url(spec.url)).origin,
            message,
            { cause: error },
          );
        waitMs = retryDelayMs(retry, null);
        event = { kind: 'network', message };
      }
      onRetry?.({
        method: spec.method,
        path: pathOf(spec.url),
        retry: retry + 1,
        waitMs,
        reason: event,
      });
      await sleep(waitMs, spec.signal);
    }
  }

  private async attempt(spec: RequestSpec): Promise<Answer> {
    const { timeoutMs } = this.options;
    const controller = new AbortController();
    const user = spec.signal;
    const forward = () => controller.abort(user?.reason);
    if (user?.aborted) throw user.reason;
    user?.addEventListener('abort', forward, { once: true });
    let timer: NodeJS.Timeout | undefined;
    // The clock starts once the request is fully sent, so a long upload is not cut short.
    const startClock = () => {
      timer = setTimeout(
        () => controller.abort(new AttemptTimeout(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    };
    const release = () => {
      clearTimeout(timer);
      user?.removeEventListener('abort', forward);
    };
    const headers: Record<string, string> = {
      accept: 'application/json',
      'user-agent': `verity-client-js/${CLIENT_VERSION}`,
      ...spec.headers,
    };
    if (!spec.anonymous) headers['x-api-key'] = this.options.apiKey;
    const init: RequestInit & { duplex?: 'half' } = { method: spec.method, headers };
    init.signal = controller.signal;
    if (spec.json !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(spec.json);
    }
    if (spec.upload) {
      headers['content-type'] = spec.upload.contentType;
      init.body = thenStart(spec.upload.open(), startClock);
      init.duplex = 'half';
    } else {
      startClock();
    }
    try {
      const response = await this.options.fetch(this.url(spec.url), init);
      clearTimeout(timer);
      return { response, release };
    } catch (error) {
      release();
      const reason: unknown = controller.signal.reason;
      throw reason instanceof AttemptTimeout && !user?.aborted ? reason : error;
    }
  }

  private url(pathOrUrl: string): string {
    return /^https?:\/\//.test(pathOrUrl) ? pathOrUrl : this.options.baseUrl + pathOrUrl;
  }
}

async function* thenStart(
  source: AsyncIterable<Uint8Array>,
  onEnd: () => void,
): AsyncIterable<Uint8Array> {
  yield* source;
  onEnd();
}

async function readError(response: Response, nowMs: number): Promise<VerityApiError> {
  const text = await response.text().catch(() => '');
  let body: { error?: { code?: unknown; message?: unknown; request_id?: unknown } } | undefined;
  try {
    body = JSON.parse(text) as typeof body;
  } catch {
    body = undefined;
  }
  const code = typeof body?.error?.code === 'string' ? body.error.code : undefined;
  const message =
    typeof body?.error?.message === 'string'
      ? body.error.message
      : `HTTP ${response.status} ${response.statusText}`.trim();
  const requestId =
    typeof body?.error?.request_id === 'string'
      ? body.error.request_id
      : response.headers.get('x-request-id');
  const error = apiError(response.status, code, message, requestId);
  if (error instanceof RateLimitedError || error instanceof ServiceUnavailableError)
    error.retryAfterSeconds = parseRetryAfter(response.headers.get('retry-after'), nowMs);
  return error;
}

/** 429 always; 503 only when the server said when to come back. */
function isRetryable(status: number, retryAfterSeconds: number | null): boolean {
  return status === 429 || (status === 503 && retryAfterSeconds !== null);
}

function retryAfterOf(error: VerityApiError): number | null {
  return error instanceof RateLimitedError || error instanceof ServiceUnavailableError
    ? error.retryAfterSeconds
    : null;
}

/** The words for the system errors a person meets most. */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connection timed out',
};

function describeNetworkError(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (typeof cause?.code === 'string')
    return NETWORK_ERRORS[cause.code] ?? `${cause.code} (${String(cause.message)})`;
  if (typeof cause?.message === 'string') return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function pathOf(url: string): string {
  // Never echo a download signature.
  return url.replace(/^https?:\/\/[^/]+/, '').replace(/\?.*$/, '');
}
