import { deployableCommand } from '../../test/deploy/deploy-files';
import { BENCH_EMAILS, BENCH_VERIFY_BODIES } from './bench-inputs';

/** High enough that the token bucket never refuses during a run; it still runs per request. */
export const RATE_LIMIT = '1000000000';

/**
 * The single call the API benchmarks load (BENCH_ROUTE): `email`, POST /v1/email/validate (the
 * default), or `verify`, POST /v1/verify with an email, a phone and an IP address (the
 * account's history recorded and read on every call, docs/history.md).
 */
export const ROUTE: 'email' | 'verify' = process.env.BENCH_ROUTE === 'verify' ? 'verify' : 'email';
if (process.env.BENCH_ROUTE !== undefined && process.env.BENCH_ROUTE !== ROUTE)
  throw new Error(`BENCH_ROUTE must be email or verify, got "${process.env.BENCH_ROUTE}"`);

/** The path of that call. */
export const VERITY_PATH = ROUTE === 'verify' ? '/v1/verify' : '/v1/email/validate';

/** The request bodies of that call; each connection cycles through them. */
export const BODIES =
  ROUTE === 'verify' ? BENCH_VERIFY_BODIES : BENCH_EMAILS.map((email) => JSON.stringify({ email }));

/** The Verity server children run with the API deployable's node flags (package.json start:api). */
export const API_NODE_FLAGS = deployableCommand('api').slice(1, -1);

/**
 * A Verity server child's environment: production, access log on, the token bucket never
 * refusing. BENCH_REDIS_URL gives it REDIS_URL: the distributed shape's Redis rate limiter and
 * history store instead of the in-process ones.
 */
export function verityEnv(databaseUrl: string, metrics: boolean): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'info',
    METRICS_ENABLED: String(metrics),
    RATE_LIMIT_PER_SECOND: RATE_LIMIT,
    RATE_LIMIT_BURST: RATE_LIMIT,
    ...(process.env.BENCH_REDIS_URL ? { REDIS_URL: process.env.BENCH_REDIS_URL } : {}),
  };
}

/**
 * Seconds of saturated load before a server is measured (BENCH_WARMUP_S): long enough for V8
 * to finish optimising a Verity instance (--trace-opt: its optimisations settle about 12 s into
 * the load, the framework floor's by 5 s); after 3 s the measured run still paid for the JIT at
 * work (docs/benchmarks.md, "Single calls").
 */
export const WARMUP_S = Number(process.env.BENCH_WARMUP_S ?? 15);
