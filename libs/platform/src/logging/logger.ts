import type { LoggerService } from '@nestjs/common';
import pino, { type Logger } from 'pino';
import type { AppConfig } from '@verity/config';
import { serializeError } from './error-serializer';
import { stdoutDestination } from './stdout.destination';
import { terminalStream, writesText } from './terminal.format';

/**
 * Secrets never reach a log line: API keys, admin tokens, download signatures and webhook
 * secrets are censored wherever they appear in logged objects.
 */
export const REDACTED_PATHS = [
  'req.headers["x-api-key"]',
  'req.headers.authorization',
  'req.query.sig',
  'headers["x-api-key"]',
  'headers.authorization',
  'apiKey',
  'api_key',
  'key',
  'sig',
  'secret',
  'webhookSecret',
  'webhook_secret',
  '*.apiKey',
  '*.api_key',
  '*.sig',
  '*.secret',
  '*.webhookSecret',
];

/** Level, redaction and serializers of every Verity logger (tests build one on a memory stream). */
export function loggerOptions(
  config: Pick<AppConfig, 'LOG_LEVEL'>,
  name: string,
): pino.LoggerOptions {
  return {
    name,
    level: config.LOG_LEVEL,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    base: { service: name },
  };
}

/**
 * The process's pino logger on stdout, level from LOG_LEVEL: JSON lines, or readable lines
 * for a person at a terminal (LOG_FORMAT). JSON lines below warn are written in 16 KiB batches,
 * warn and above at once ({@link stdoutDestination}: they survive a SIGKILL).
 */
export function createLogger(
  config: Pick<AppConfig, 'LOG_LEVEL'> & Partial<Pick<AppConfig, 'LOG_FORMAT'>>,
  name: string,
): Logger {
  return pino(
    loggerOptions(config, name),
    writesText(config.LOG_FORMAT ?? 'auto') ? terminalStream() : stdoutDestination(),
  );
}

/** Nest's start-up chatter (each module, route and controller): debug, not the first screen. */
const FRAMEWORK_CONTEXTS = new Set([
  'NestFactory',
  'NestApplication',
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
]);

/** Routes Nest's framework logs into pino. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, context?: string): void {
    if (context !== undefined && FRAMEWORK_CONTEXTS.has(context))
      this.logger.debug({ context }, String(message));
    else this.logger.info({ context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ context }, String(message));
  }
}
