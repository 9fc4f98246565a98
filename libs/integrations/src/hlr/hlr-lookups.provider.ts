import { createHmac } from 'node:crypto';
import type { HlrStatus } from '@verity/contracts';
import type { HlrLookupResult, HlrProvider } from '@verity/validation';
import { HlrUnavailableError } from './hlr.errors';
import { hlrLookupsResponseSchema, type HlrLookupsResponse } from './hlr-lookups.schema';

/** Settings of the hlr-lookups.com adapter. */
export interface HlrLookupsOptions {
  /** API root, e.g. https://www.hlr-lookups.com/api/v2 (no trailing slash needed). */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  timeoutMs: number;
  /** Clock in ms, injectable for signature tests. */
  now?: () => number;
}

const ENDPOINT = '/hlr-lookup';
const MAX_BODY_BYTES = 64 * 1024;

/**
 * hlr-lookups.com live HLR adapter (API v2, synchronous POST /hlr-lookup).
 * Auth is the provider's Digest scheme: X-Digest-Key, X-Digest-Timestamp (unix seconds) and
 * X-Digest-Signature = hex HMAC-SHA256(secret, endpoint path + timestamp + method + body).
 * The secret never leaves this process. Redirects are never followed (a 3xx is a failure),
 * so credentials and numbers cannot be bounced to another host.
 */
export class HlrLookupsProvider implements HlrProvider {
  private readonly url: string;
  private readonly now: () => number;
  private readonly closing = new AbortController();

  constructor(private readonly opts: HlrLookupsOptions) {
    this.url = opts.baseUrl.replace(/\/+$/, '') + ENDPOINT;
    this.now = opts.now ?? Date.now;
  }

  /** Looks up one E.164 number; throws HlrUnavailableError when no answer can be had. */
  async lookup(e164: string): Promise<HlrLookupResult> {
    if (this.closing.signal.aborted) throw new HlrUnavailableError('closed', 'provider closed');
    const body = JSON.stringify({ msisdn: e164 });
    const timestamp = Math.floor(this.now() / 1000).toString();
    const signal = AbortSignal.any([AbortSignal.timeout(this.opts.timeoutMs), this.closing.signal]);
    let status: number;
    let text: string;
    try {
      const res = await fetch(this.url, {
        method: 'POST',
        redirect: 'manual',
        signal,
        headers: {
          accept: 'application/json',
          'content-type': 'application/json',
          'x-digest-key': this.opts.apiKey,
          'x-digest-timestamp': timestamp,
          'x-digest-signature': hlrLookupsSignature(
            ENDPOINT,
            timestamp,
            'POST',
            body,
            this.opts.apiSecret,
          ),
        },
        body,
      });
      status = res.status;
      text = await readCapped(res);
    } catch (err) {
      throw transportError(err, signal);
    }
    if (status >= 300 && status < 400) throw new HlrUnavailableError('redirect', `HTTP ${status}`);
    if (status === 401 || status === 403) {
      throw new HlrUnavailableError('auth_failed', `HTTP ${status}: ${text.slice(0, 200)}`);
    }
    if (status !== 200)
      throw new HlrUnavailableError('http_error', `HTTP ${status}: ${text.slice(0, 200)}`);
    return toResult(parseAnswer(text));
  }

  /** Aborts in-flight lookups and refuses new ones (shutdown). */
  close(): void {
    this.closing.abort();
  }
}

/** The provider's Digest-Auth signature (hex HMAC-SHA256). Exported for the fake server. */
export function hlrLookupsSignature(
  endpoint: string,
  timestamp: string,
  method: string,
  body: string,
  secret: string,
): string {
  return createHmac('sha256', secret)
    .update(endpoint + timestamp + method.toUpperCase() + body)
    .digest('hex');
}

function parseAnswer(text: string): HlrLookupsResponse {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new HlrUnavailableError('bad_response', 'body is not JSON');
  }
  const parsed = hlrLookupsResponseSchema.safeParse(json);
  if (!parsed.success)
    throw new HlrUnavailableError('bad_response', parsed.error.message.slice(0, 200));
  const processing = parsed.data.processing_status;
  // REJECTED / FAILED: the platform could not run the lookup (no charge on their side).
  if (processing !== undefined && processing !== 'COMPLETED') {
    throw new HlrUnavailableError('lookup_failed', `processing_status ${processing}`);
  }
  return parsed.data;
}

/**
 * CONNECTED → active; INVALID_MSISDN → inactive (not assigned to a subscriber);
 * ABSENT (handset off / out of reach) and UNDETERMINED → unavailable.
 */
function toResult(r: HlrLookupsResponse): HlrLookupResult {
  const status: HlrStatus =
    r.connectivity_status === 'CONNECTED'
      ? 'active'
      : r.connectivity_status === 'INVALID_MSISDN'
        ? 'inactive'
        : 'unavailable';
  const ported = status === 'inactive' ? null : (r.is_ported ?? null);
  const roaming = status === 'inactive' ? null : (r.is_roaming ?? null);
  const currentNetwork =
    (ported === true ? r.ported_network_name : r.original_network_name) ?? null;
  return { status, ported, roaming, currentNetwork };
}

async function readCapped(res: Response): Promise<string> {
  const declared = Number(res.headers.get('content-length') ?? '0');
  if (declared > MAX_BODY_BYTES) {
    await res.body?.cancel();
    throw new HlrUnavailableError('bad_response', `body of ${declared} bytes`);
  }
  const buf = Buffer.from(await res.arrayBuffer());
  if (buf.length > MAX_BODY_BYTES) throw new HlrUnavailableError('bad_response', 'body too large');
  return buf.toString('utf8');
}

function transportError(err: unknown, signal: AbortSignal): HlrUnavailableError {
  if (err instanceof HlrUnavailableError) return err;
  const reason: unknown = signal.reason;
  if (signal.aborted && reason instanceof DOMException && reason.name === 'TimeoutError') {
    return new HlrUnavailableError('timeout', 'request timed out');
  }
  if (signal.aborted) return new HlrUnavailableError('closed', 'request aborted');
  return new HlrUnavailableError('network_error', err instanceof Error ? err.message : String(err));
}
