import { parseArgs, type ParseArgsConfig } from 'node:util';
import { Verity, type RetryEvent } from '../index';
import { UsageError } from './usage.error';

const GLOBAL_OPTIONS = {
  key: { type: 'string' },
  url: { type: 'string' },
  json: { type: 'boolean', default: false },
  retries: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

type Options = NonNullable<ParseArgsConfig['options']>;
type Parsed<O extends Options> = ReturnType<
  typeof parseArgs<{
    args: string[];
    options: typeof GLOBAL_OPTIONS & O;
    allowPositionals: true;
    strict: true;
  }>
>;

/** Parses `argv` with the global options plus `options`; positionals are allowed. */
export function parse<O extends Options>(argv: string[], options: O): Parsed<O> {
  try {
    return parseArgs({
      args: argv,
      options: { ...GLOBAL_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export interface ClientContext {
  verity: Verity;
  json: boolean;
  /** The key is a `vrt_test_` key: its calls and jobs are free. */
  testKey: boolean;
}

/** A client from --key/--url (or the environment); the key is never printed. */
export function connect(values: {
  key?: string;
  url?: string;
  json?: boolean;
  retries?: string;
}): ClientContext {
  const apiKey = values.key ?? process.env.VERITY_API_KEY;
  if (!apiKey) throw new UsageError('no API key: set VERITY_API_KEY or pass --key');
  const maxRetries = values.retries === undefined ? undefined : Number(values.retries);
  if (maxRetries !== undefined && !(Number.isInteger(maxRetries) && maxRetries >= 0))
    throw new UsageError('--retries must be a whole number >= 0');
  const verity = new Verity({
    apiKey,
    baseUrl: values.url,
    maxRetries,
    onRetry: (event: RetryEvent) => {
      const why =
        event.reason.kind === 'status'
          ? `${event.reason.status} ${event.reason.code}`
          : event.reason.message;
      process.stderr.write(
        `verity: ${why}; retry ${event.retry} in ${(event.waitMs / 1000).toFixed(0)} s\n`,
      );
    },
  });
  return { verity, json: values.json === true, testKey: apiKey.startsWith('vrt_test_') };
}

export function one(positionals: string[], what: string, usage: string): string {
  if (positionals.length !== 1) throw new UsageError(`expected ${what}\nusage: ${usage}`);
  return positionals[0];
}
