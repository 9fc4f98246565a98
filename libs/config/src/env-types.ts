import { z } from 'zod';

/** `true`/`false`/`1`/`0` from the environment. */
export const envBool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1');

/** A positive integer from the environment. */
export const envInt = (fallback: number, min = 1) =>
  z.coerce.number().int().min(min).default(fallback);

const DURATION_UNITS_MS: Record<string, number> = {
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/**
 * A duration such as `30s`, `15m`, `6h` or `1d`, in milliseconds; `off` or `0` is 0 (disabled).
 * Shorter than `min` ms is refused, so a typo cannot turn a daily job into a busy loop.
 */
export const envDuration = (fallback: string, minMs: number) =>
  z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      const text = v.trim().toLowerCase();
      if (text === 'off' || text === '0') return 0;
      const m = /^(\d+)\s*([smhd])$/.exec(text);
      const ms = m === null ? NaN : Number(m[1]) * DURATION_UNITS_MS[m[2]];
      if (!(ms >= minMs)) {
        ctx.addIssue({
          code: 'custom',
          message: `expected off or a duration of at least ${minMs / 1000}s such as 6h or 1d, got "${v}"`,
        });
        return z.NEVER;
      }
      return ms;
    });

/** A comma-separated list from the environment; empty entries are dropped. */
export const envList = () =>
  z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    );

const CIDR = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;

/**
 * Which peers may set X-Forwarded-For/-Proto (Fastify's `trustProxy`): unset trusts none, a
 * number trusts that many hops, else a comma-separated list of addresses or CIDR ranges.
 * `true` (trust anyone) is deliberately not accepted: any client could then pick its address.
 */
export const envTrustProxy = () =>
  z
    .string()
    .default('')
    .refine(
      (v) => /^\d*$/.test(v.trim()) || v.split(',').every((s) => CIDR.test(s.trim())),
      'a hop count, or comma-separated proxy addresses or CIDR ranges',
    )
    .transform((v): false | number | string[] => {
      const text = v.trim();
      if (text === '') return false;
      if (/^\d+$/.test(text)) return Number(text);
      return text.split(',').map((s) => s.trim());
    });
