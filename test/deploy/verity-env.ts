import { configSchema, loadConfig, type AppConfig } from '@verity/config';

/** Variables that are not Verity settings but may appear in a deployable's environment. */
export const NON_VERITY_ENV = new Set(['NODE_OPTIONS']);

/** Result of checking one environment against the Verity configuration schema. */
export interface EnvCheck {
  readonly unknown: string[];
  readonly config?: AppConfig;
  readonly error?: string;
}

/**
 * Checks an environment the way a deployable would load it: every key must be a Verity
 * setting (zod strips unknown keys silently, so a misspelt variable would otherwise pass)
 * and the whole set must validate, including the backend-dependent rules.
 */
export function checkVerityEnv(env: Readonly<Record<string, string>>): EnvCheck {
  const known = new Set(Object.keys(configSchema.shape));
  const unknown = Object.keys(env).filter((k) => !known.has(k) && !NON_VERITY_ENV.has(k));
  const verity = Object.fromEntries(Object.entries(env).filter(([k]) => !NON_VERITY_ENV.has(k)));
  try {
    return { unknown, config: loadConfig(verity) };
  } catch (err) {
    return { unknown, error: err instanceof Error ? err.message : String(err) };
  }
}
