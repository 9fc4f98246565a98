import { z } from 'zod';
import { envBool, envInt } from '../env-types';

/** Process-wide settings: where we listen, where data lives, who may administer. */
export const coreSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url().optional(),
  VERITY_HOME: z.string().min(1).default('./.verity'),
  DATABASE_URL: z.url().optional(),
  DATABASE_POOL_SIZE: envInt(10),
  REDIS_URL: z.url().optional(),
  ADMIN_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  CONSOLE_URL: z.url().default('http://localhost:8080/console'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  BODY_LIMIT_BYTES: envInt(64 * 1024),
  RATE_LIMIT_PER_SECOND: envInt(50),
  RATE_LIMIT_BURST: envInt(100),
  KEY_CACHE_TTL_MS: envInt(60_000),
  METRICS_ENABLED: envBool(true),
  SHUTDOWN_TIMEOUT_MS: envInt(25_000),
  DEV_ACCOUNT_CREDITS: envInt(10_000, 0),
});
