import type { AppConfig } from './config.schema';

/** Nest injection token for the whole validated AppConfig (bootstrap code that reads across it). */
export const APP_CONFIG = Symbol.for('verity.app-config');

/**
 * Nest injection tokens of the config's sections (sections/*.config.ts), one a section: a class
 * asks for the sections it reads. Each is the same validated object as APP_CONFIG.
 */
export const CORE_CONFIG = Symbol.for('verity.config.core');
export const EMAIL_CONFIG = Symbol.for('verity.config.email');
export const SMTP_CONFIG = Symbol.for('verity.config.smtp');
export const PHONE_CONFIG = Symbol.for('verity.config.phone');
export const IP_CONFIG = Symbol.for('verity.config.ip');
export const BATCH_CONFIG = Symbol.for('verity.config.batch');
export const CONSOLE_CONFIG = Symbol.for('verity.config.console');
export const CREDITS_CONFIG = Symbol.for('verity.config.credits');
export const HTTP_LIMITS_CONFIG = Symbol.for('verity.config.http-limits');
export const HISTORY_CONFIG = Symbol.for('verity.config.history');

const SECTION_TOKENS = [
  CORE_CONFIG,
  EMAIL_CONFIG,
  SMTP_CONFIG,
  PHONE_CONFIG,
  IP_CONFIG,
  BATCH_CONFIG,
  CONSOLE_CONFIG,
  CREDITS_CONFIG,
  HTTP_LIMITS_CONFIG,
  HISTORY_CONFIG,
] as const;

/** Every config token, APP_CONFIG and the sections: what a module providing the config exports. */
export const CONFIG_TOKENS: readonly symbol[] = [APP_CONFIG, ...SECTION_TOKENS];

/** Nest providers of APP_CONFIG and of every section, all the one validated object. */
export function configProviders(
  config: AppConfig,
): ({ provide: symbol; useValue: AppConfig } | { provide: symbol; useExisting: symbol })[] {
  return [
    { provide: APP_CONFIG, useValue: config },
    ...SECTION_TOKENS.map((provide) => ({ provide, useExisting: APP_CONFIG })),
  ];
}
