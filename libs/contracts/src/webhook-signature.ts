import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header that carries the signature of a webhook request. */
export const WEBHOOK_SIGNATURE_HEADER = 'Verity-Signature';

/** Outcome of checking a webhook signature. */
export type WebhookVerdict = 'ok' | 'invalid' | 'expired';

function hmacHex(body: string | Buffer, secret: string | Buffer, t: number): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex');
}

/**
 * The `Verity-Signature` value for `body` sent at Unix time `t`: `t=<t>,v1=<hex>` where hex is
 * HMAC-SHA256(secret, "<t>.<body>") (the scheme Stripe uses, so receivers know it).
 */
export function signWebhook(body: string | Buffer, secret: string | Buffer, t: number): string {
  if (!Number.isSafeInteger(t) || t < 0) throw new RangeError('t must be a Unix time in seconds');
  return `t=${t},v1=${hmacHex(body, secret, t)}`;
}

/**
 * Checks a `Verity-Signature` header against the raw body: 'ok', 'invalid' (malformed or no
 * matching v1), or 'expired' (genuine but `t` is more than `toleranceSeconds` from `now`,
 * which stops replays). Several v1 entries are accepted, for secret rotation.
 */
export function verifyWebhook(
  header: string | undefined,
  body: string | Buffer,
  secret: string | Buffer,
  toleranceSeconds: number,
  now: number,
): WebhookVerdict {
  if (typeof header !== 'string' || header.length > 4096) return 'invalid';
  let t: number | undefined;
  const candidates: Buffer[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^[0-9]{1,15}$/.test(value)) t = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value))
      candidates.push(Buffer.from(value, 'hex'));
  }
  if (t === undefined || candidates.length === 0) return 'invalid';
  const expected = Buffer.from(hmacHex(body, secret, t), 'hex');
  // Every candidate is compared (no early exit), each in constant time on 32-byte buffers.
  let matched = false;
  for (const candidate of candidates) matched = timingSafeEqual(expected, candidate) || matched;
  if (!matched) return 'invalid';
  return Math.abs(now - t) > toleranceSeconds ? 'expired' : 'ok';
}
