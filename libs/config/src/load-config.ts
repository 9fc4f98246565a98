import { configSchema, type AppConfig } from './config.schema';

/** A setting that failed validation; the message names the variable. */
export class ConfigError extends Error {
  constructor(readonly issues: readonly string[]) {
    super(`Invalid configuration:\n  ${issues.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** How the process was started: `verity start` (all-in-one) or one deployable on its own. */
export interface LoadConfigOptions {
  /**
   * A deployable (api, ingest, scorer) runs next to others that must share its database, so it
   * needs DATABASE_URL unless EMBEDDED_DATABASE=true asks for a private embedded one.
   */
  readonly deployable?: boolean;
}

/**
 * Reads and validates configuration once. Empty strings count as unset so that
 * `FOO=` in an env file falls back to the default instead of failing.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  options: LoadConfigOptions = {},
): AppConfig {
  const raw: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') raw[key] = value;
  }
  raw.CONSOLE_URL ??= defaultConsoleUrl(raw);
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(config)'}: ${i.message}`),
    );
  }
  if (options.deployable === true && !parsed.data.DATABASE_URL && !parsed.data.EMBEDDED_DATABASE) {
    throw new ConfigError([
      'DATABASE_URL: required by a deployable started on its own (set it to the shared PostgreSQL, or EMBEDDED_DATABASE=true for a private embedded one)',
    ]);
  }
  return parsed.data;
}

/**
 * The configuration once PORT=0 has been given a real port: PORT, and CONSOLE_URL when it was
 * derived from PORT (not set, no PUBLIC_URL), name the port the process listens on.
 */
export function withListenPort(config: AppConfig, port: number): AppConfig {
  if (config.PORT === port) return config;
  const derived = (p: number) =>
    defaultConsoleUrl({
      HOST: config.HOST,
      PORT: String(p),
      ...(config.PUBLIC_URL ? { PUBLIC_URL: config.PUBLIC_URL } : {}),
    });
  const consoleUrl =
    config.CONSOLE_URL === derived(config.PORT) ? derived(port) : config.CONSOLE_URL;
  return { ...config, PORT: port, CONSOLE_URL: consoleUrl };
}

/** The API's own /console: under PUBLIC_URL when set, else where the API listens. */
function defaultConsoleUrl(raw: Record<string, string>): string {
  if (raw.PUBLIC_URL) return `${raw.PUBLIC_URL.replace(/\/+$/, '')}/console`;
  const host = !raw.HOST || raw.HOST === '0.0.0.0' || raw.HOST === '::' ? '127.0.0.1' : raw.HOST;
  // A bad PORT is reported on its own; the derived address then just uses the default port.
  const port = raw.PORT && /^[0-9]+$/.test(raw.PORT) ? raw.PORT : '8080';
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/console`;
}
