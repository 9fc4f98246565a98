import { verifyWebhook, type BatchJob } from '@verity/contracts/wire';
import { WebhookSignatureError } from './errors';

/** Header bags as Node (`req.headers`), fetch (`Headers`) or a plain object give them. */
export type HeaderBag = Headers | Record<string, string | string[] | undefined>;

export interface WebhookVerifyOptions {
  /** Largest accepted distance between `t` and the clock; default 300 s (replay window). */
  toleranceSeconds?: number;
  /** Unix time in seconds; defaults to the clock. */
  nowSeconds?: number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;

/** Receiving side of batch webhooks. */
export class WebhooksResource {
  /**
   * Checks `Verity-Signature` against the raw request body (the bytes as received, before any
   * JSON parsing) in constant time, refuses a timestamp outside the tolerance, and returns the
   * job the body carries. Throws WebhookSignatureError (`reason` 'invalid' or 'expired').
   * @example const job = verity.webhooks.verify(rawBody, req.headers, process.env.VERITY_WEBHOOK_SECRET);
   */
  verify(
    rawBody: string | Uint8Array,
    headers: HeaderBag,
    secret: string,
    options: WebhookVerifyOptions = {},
  ): BatchJob {
    const body = typeof rawBody === 'string' ? rawBody : Buffer.from(rawBody);
    const verdict = verifyWebhook(
      signatureHeader(headers),
      body,
      secret,
      options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS,
      options.nowSeconds ?? Math.floor(Date.now() / 1000),
    );
    if (verdict !== 'ok') throw new WebhookSignatureError(verdict);
    return JSON.parse(body.toString()) as BatchJob;
  }
}

function signatureHeader(headers: HeaderBag): string | undefined {
  if (headers instanceof Headers) return headers.get('verity-signature') ?? undefined;
  for (const [name, value] of Object.entries(headers))
    if (name.toLowerCase() === 'verity-signature') return Array.isArray(value) ? value[0] : value;
  return undefined;
}
