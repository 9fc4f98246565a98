import { z } from 'zod';
import { envBool, envInt, envTrustProxy } from '../env-types';

/** Process-wide settings: where we listen, where data lives, who may administer. */
export const coreSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  /** Base of every link Verity hands out (result_url, webhooks); required with ROW_BUS=kafka. */
  PUBLIC_URL: z.url().optional(),
  TRUST_PROXY: envTrustProxy(),
  VERITY_HOME: z.string().min(1).default('./.verity'),
  DATABASE_URL: z.url().optional(),
  /**
   * A deployable started on its own (api, ingest, scorer) runs the embedded PostgreSQL under
   * VERITY_HOME only when this is true; otherwise it needs DATABASE_URL (docs/operations.md,
   * "DATABASE_URL"). `verity start` uses the embedded database whenever DATABASE_URL is unset.
   */
  EMBEDDED_DATABASE: envBool(false),
  DATABASE_POOL_SIZE: envInt(10),
  REDIS_URL: z.url().optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Defaults to the API's own /console (see loadConfig). */
  CONSOLE_URL: z.url(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `auto`: readable lines when stdout is a terminal, JSON lines otherwise. */
  LOG_FORMAT: z.enum(['auto', 'json', 'text']).default('auto'),
  BODY_LIMIT_BYTES: envInt(64 * 1024),
  /** An upload whose body stops arriving for this long is cut with 408. */
  BODY_IDLE_TIMEOUT_MS: envInt(30_000),
  RATE_LIMIT_PER_SECOND: envInt(50),
  RATE_LIMIT_BURST: envInt(100),
  /** Requests without a known key per client address (failed or uncached authentication). */
  AUTH_RATE_LIMIT_PER_SECOND: envInt(10),
  AUTH_RATE_LIMIT_BURST: envInt(100),
  KEY_CACHE_TTL_MS: envInt(60_000),
  METRICS_ENABLED: envBool(true),
  SHUTDOWN_TIMEOUT_MS: envInt(25_000),
  DEV_ACCOUNT_CREDITS: envInt(10_000, 0),
});

/** The core section of the validated config (inject it with CORE_CONFIG). */
export type CoreConfig = z.infer<typeof coreSchema>;
