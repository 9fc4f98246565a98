import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { DeriveParams } from './password.pool';

// OWASP's scrypt floor (N=2^17, r=8, p=1): about 128 MiB and a few hundred ms per hash, so
// a stolen table is slow to attack. maxmem must allow 128·N·r bytes.
const PARAMS = { N: 2 ** 17, r: 8, p: 1, maxmem: 256 * 1024 * 1024 } as const;
const KEY_LENGTH = 32;

/** Runs one scrypt derivation (PasswordHashPool.derive, in a worker thread). */
export type Derive = (params: DeriveParams) => Promise<Buffer>;

/** `scrypt$N$r$p$salt$hash` (base64url); the parameters travel with the hash. */
export async function hashPassword(password: string, derive: Derive): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive({
    password: password.normalize('NFKC'),
    salt,
    keyLength: KEY_LENGTH,
    ...PARAMS,
  });
  return [
    'scrypt',
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/** Constant-time comparison of a password with a stored hash; false for a malformed hash. */
export async function verifyPassword(
  password: string,
  stored: string,
  derive: Derive,
): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const key = await derive({
    password: password.normalize('NFKC'),
    salt: Buffer.from(salt, 'base64url'),
    keyLength: KEY_LENGTH,
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: PARAMS.maxmem,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A hash to verify against when the email is unknown, so both paths cost the same. */
export const DECOY_HASH =
  'scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA';
