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
