import type {
  EmailResult,
  ExplainedVerifyResult,
  IpResult,
  PhoneResult,
  PingResponse,
  VerifyResult,
} from '@verity/contracts/wire';
import { BatchResource } from './batch';
import { VerityClientError } from './errors';
import { FeedbackResource } from './feedback';
import { KeysResource } from './keys';
import { DEFAULT_MAX_RETRIES, defaultSleep, type RetryEvent } from './retry';
import { Transport } from './transport';
import { WebhooksResource } from './webhooks';

/** Where `npm start` listens; used when neither `baseUrl` nor VERITY_URL is given. */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:8080';
/** How long one attempt waits for the server's answer to start (after the upload). */
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface VerityOptions {
  /** The API key; defaults to VERITY_API_KEY. Use it only from a backend (spec). */
  apiKey?: string;
  /** Defaults to VERITY_URL, then http://127.0.0.1:8080. */
  baseUrl?: string;
  /** Per attempt; default 60,000. */
  timeoutMs?: number;
  /** Retries after the first attempt for 429/503 (and broken connections when safe); default 3. */
  maxRetries?: number;
  /** A fetch implementation (default: Node's global fetch). */
  fetch?: typeof fetch;
  /** Construct in a browser anyway: the key would be visible to every visitor. */
  dangerouslyAllowBrowser?: boolean;
  /** Called before each retry with the wait it is about to make. */
  onRetry?: (event: RetryEvent) => void;
  /** Waits between retries and polls; injectable so tests and schedulers control time. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** The clock `batch.wait` measures its timeout with (ms); default Date.now. */
  now?: () => number;
}

export interface PhoneOptions {
  /** ISO 3166-1 alpha-2 country used to parse a local number (`GB`). */
  countryHint?: string;
  /** A live HLR lookup: 5 credits instead of 1; 503 when no provider is configured. */
  hlr?: boolean;
  signal?: AbortSignal;
}

export interface VerifyInput {
  email?: string;
  phone?: string;
  ip?: string;
  /** ISO 3166-1 alpha-2 country used to parse a local `phone` (`GB`). */
  countryHint?: string;
}

interface Signal {
  signal?: AbortSignal;
}

function env(name: string): string | undefined {
  return typeof process === 'undefined' ? undefined : process.env[name];
}

/**
 * The Verity API client: `new Verity()` reads VERITY_API_KEY and VERITY_URL.
 * Every method returns the API's JSON shapes and throws a VerityApiError subclass for a
 * non-2xx answer, after the retries for 429 and 503.
 */
export class Verity {
  readonly batch: BatchResource;
  readonly keys: KeysResource;
  readonly feedback: FeedbackResource;
  readonly webhooks = new WebhooksResource();
  readonly email = {
    /**
     * Validates one address (1 credit).
     * @example const { deliverability, did_you_mean } = await verity.email.validate('jane@gmial.com');
     */
    validate: (email: string, options: Signal = {}): Promise<EmailResult> =>
      this.post('/v1/email/validate', { email }, options),
  };
  readonly phone = {
    /**
     * Parses and scores a number (1 credit; 5 with `hlr: true`).
     * @example const { e164, line_type } = await verity.phone.validate('07400 123456', { countryHint: 'GB' });
     */
    validate: (phone: string, options: PhoneOptions = {}): Promise<PhoneResult> =>
      this.post(
        '/v1/phone/validate',
        {
          phone,
          ...(options.countryHint !== undefined && { country_hint: options.countryHint }),
          ...(options.hlr !== undefined && { hlr: options.hlr }),
        },
        options,
      ),
  };
  readonly ip = {
    /**
     * Country, ASN, VPN/proxy/Tor/datacenter flags and an abuse score (1 credit).
     * @example const { country, tor } = await verity.ip.intel('8.8.8.8');
     */
    intel: (ip: string, options: Signal = {}): Promise<IpResult> =>
      this.post('/v1/ip/intel', { ip }, options),
  };

  private readonly transport: Transport;

  constructor(options: VerityOptions = {}) {
    const browser =
      typeof (globalThis as { window?: unknown }).window !== 'undefined' &&
      typeof (globalThis as { document?: unknown }).document !== 'undefined';
    if (browser && options.dangerouslyAllowBrowser !== true)
      throw new VerityClientError(
        'Verity keys must be used only from a backend: a key in browser code is visible to every visitor. ' +
          'Pass dangerouslyAllowBrowser: true if you really mean it.',
      );
    const apiKey = options.apiKey ?? env('VERITY_API_KEY');
    if (!apiKey) throw new VerityClientError('no API key: pass { apiKey } or set VERITY_API_KEY');
    const baseUrl = (options.baseUrl ?? env('VERITY_URL') ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw new VerityClientError(`baseUrl must be an http(s) URL, got "${baseUrl}"`);
    const sleep = options.sleep ?? defaultSleep;
    const now = options.now ?? Date.now;
    this.transport = new Transport({
      apiKey,
      baseUrl,
      timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxRetries: options.maxRetries ?? DEFAULT_MAX_RETRIES,
      fetch: options.fetch ?? globalThis.fetch.bind(globalThis),
      sleep,
      now,
      onRetry: options.onRetry,
    });
    this.batch = new BatchResource(this.transport, { sleep, now });
    this.keys = new KeysResource(this.transport);
    this.feedback = new FeedbackResource(this.transport);
  }

  /** The base URL requests go to (never the key). */
  get baseUrl(): string {
    return this.transport.baseUrl;
  }

  /**
   * Checks the key: its account, its name and the credits left (free).
   * @example const { credits_remaining } = await verity.ping();
   */
  ping(options: Signal = {}): Promise<PingResponse> {
    return this.transport.json({ method: 'GET', url: '/v1/ping', idempotent: true, ...options });
  }

  /**
   * Combined fraud check of any of email, phone and IP (3 credits). `explain: true` adds
   * `fraud_base`, the `reasons` behind the score and the `history` of each value. Keep the
   * answer's `request_id` to report how the call turned out (`verity.feedback.report`).
   * @example const { fraud_score, risk } = await verity.verify({ email, ip }, { explain: true });
   */
  verify(input: VerifyInput, options: Signal & { explain: true }): Promise<ExplainedVerifyResult>;
  verify(input: VerifyInput, options?: Signal & { explain?: boolean }): Promise<VerifyResult>;
  verify(
    input: VerifyInput,
    options: Signal & { explain?: boolean } = {},
  ): Promise<VerifyResult | ExplainedVerifyResult> {
    const { countryHint, ...values } = input;
    const body = countryHint === undefined ? values : { ...values, country_hint: countryHint };
    return this.post(options.explain ? '/v1/verify?explain=true' : '/v1/verify', body, options);
  }

  private post<T>(url: string, json: unknown, options: Signal): Promise<T> {
    // Not idempotent: a call that reached the server may have been charged, so a broken
    // connection is reported, not retried (429 and 503 are: nothing was charged).
    return this.transport.json<T>({
      method: 'POST',
      url,
      json,
      idempotent: false,
      signal: options.signal,
    });
  }
}
