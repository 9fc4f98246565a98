import { createHmac, timingSafeEqual } from 'node:crypto';
import { VerityError } from '@verity/common';

// Token layout (then base64url, RFC 4648 §5): 8-byte big-endian expiry in Unix seconds,
// followed by HMAC-SHA256(secret, `${jobId}.${expiry}`). Fixed length: 40 bytes, 54 chars.
// The expiry travels in the clear so the server keeps no state; the MAC binds it to the job.
const EXPIRY_BYTES = 8;
const MAC_BYTES = 32;
const TOKEN_BYTES = EXPIRY_BYTES + MAC_BYTES;
const TOKEN_CHARS = Math.ceil((TOKEN_BYTES * 4) / 3);
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** Outcome of checking a download token; both failures map to 403 forbidden. */
export type DownloadVerdict = 'ok' | 'invalid' | 'expired';

function mac(jobId: string, expiry: bigint, secret: string | Buffer): Buffer {
  return createHmac('sha256', secret).update(`${jobId}.${expiry}`).digest();
}

/** Signs a download of `jobId` valid until `expiresAtEpochSeconds` (the `sig` query value). */
export function signDownload(
  jobId: string,
  expiresAtEpochSeconds: number,
  secret: string | Buffer,
): string {
  if (!Number.isSafeInteger(expiresAtEpochSeconds) || expiresAtEpochSeconds < 0) {
    throw new RangeError('expiresAtEpochSeconds must be a non-negative integer');
  }
  const expiry = BigInt(expiresAtEpochSeconds);
  const token = Buffer.alloc(TOKEN_BYTES);
  token.writeBigUInt64BE(expiry, 0);
  mac(jobId, expiry, secret).copy(token, EXPIRY_BYTES);
  return token.toString('base64url');
}

/**
 * Checks a download token in constant time: 'invalid' for anything not signed for this job
 * with this secret, 'expired' for a genuine token at or past its expiry.
 */
export function verifyDownload(
  jobId: string,
  token: string,
  secret: string | Buffer,
  nowSeconds: number,
): DownloadVerdict {
  if (!Number.isFinite(nowSeconds)) throw new RangeError('nowSeconds must be a finite number');
  const wellFormed =
    typeof token === 'string' && token.length === TOKEN_CHARS && BASE64URL.test(token);
  const raw = wellFormed ? Buffer.from(token, 'base64url') : Buffer.alloc(TOKEN_BYTES);
  // Re-encoding rejects variants that differ only in the unused low bits of the last character.
  const shaped = wellFormed && raw.length === TOKEN_BYTES && raw.toString('base64url') === token;
  const claimed = shaped ? raw : Buffer.alloc(TOKEN_BYTES);
  const expiry = claimed.readBigUInt64BE(0);
  // The MAC is computed and compared even for a malformed token, so the time taken does not
  // tell a malformed token from a forged one; timingSafeEqual needs equal lengths, which the
  // fixed layout guarantees.
  const expected = mac(jobId, expiry, secret);
  const matches = timingSafeEqual(expected, claimed.subarray(EXPIRY_BYTES));
  if (!shaped || !matches) return 'invalid';
  return BigInt(Math.floor(nowSeconds)) >= expiry ? 'expired' : 'ok';
}

/** Like verifyDownload, but throws 403 forbidden unless the token is valid. */
export function assertDownloadToken(
  jobId: string,
  token: string | undefined,
  secret: string | Buffer,
  nowSeconds: number,
): void {
  const verdict = verifyDownload(jobId, token ?? '', secret, nowSeconds);
  if (verdict === 'ok') return;
  throw new VerityError(
    'forbidden',
    verdict === 'expired'
      ? 'download link has expired; fetch the job again for a fresh result_url'
      : 'download signature is invalid',
  );
}
