import { KEY_MODES, type KeyMode } from '@verity/contracts/wire';
import { VerityConnectionError } from '../index';
import { UsageError } from './usage.error';
import { batchCommand } from './batch.command';
import { exitCodeOf } from './exit-codes';
import { feedbackCommand } from './feedback.command';
import { printResult } from './output';
import { connect, one, parse } from './options';

/** The API commands of `verity`, built on @verity/client. */
export const CLIENT_COMMANDS = [
  'ping',
  'email',
  'phone',
  'ip',
  'verify',
  'feedback',
  'batch',
  'keys',
] as const;
type ClientCommand = (typeof CLIENT_COMMANDS)[number];

export function isClientCommand(command: string): command is ClientCommand {
  return (CLIENT_COMMANDS as readonly string[]).includes(command);
}

export const CLIENT_HELP = `  ping                                        check the key: account, key name, credits left
  email ADDRESS                               validate an email address (1 credit)
  phone NUMBER [--country GB] [--hlr]         validate a phone number (1 credit; 5 with --hlr)
  ip ADDRESS                                  IP intelligence (1 credit)
  verify [--email E] [--phone P [--country GB]] [--ip I] [--explain]
                                              combined fraud check (3 credits); its
                                              request_id reports the outcome later
  feedback REQUEST_ID --outcome fraud|legitimate
                                              how a verify call turned out (free): later scores
                                              of its email, phone and IP rise or fall
  feedback [--email E] [--phone P] [--ip I] --outcome fraud|legitimate
                                              the same for values seen elsewhere
  feedback stats                              what the reported outcomes say about the scores
  batch run FILE --type email|phone|ip [--out FILE] [--webhook URL] [--interval S] [--timeout S]
                                              upload a CSV, show progress, download the result
                                              (next to FILE unless --out); a first line that is
                                              a column name (email, phone, ip, ...) and not a
                                              valid value is a header, skipped and free
    [--column C] [--header true|false]        a multi-column CSV: the column to validate (header
                                              name or 1-based index); every input column is kept
    [--fields all]                            also the result columns the single calls have
    [--country GB] [--country-column C]       phone jobs: the country of numbers written without
                                              their country code, for every row or (with
                                              --column) per row from a column of the file
  batch get ID                                a batch job's state
  batch download ID [--out FILE]              wait for a job (if needed) and download its result
  batch list [--status S] [--limit N] [--all] the account's jobs, newest first, a page at a time
  batch cancel ID                             stop a queued or processing job; unprocessed rows
                                              are refunded
  keys list | create NAME [--mode test] | rotate ID | delete ID
                                              manage the account's API keys (--mode test:
                                              a vrt_test_ key, free and offline)

  API commands take --key (default VERITY_API_KEY; prefer the variable, a flag shows in ps),
  --url (default VERITY_URL, then http://127.0.0.1:8080), --json, --retries N (default 3).`;

async function dispatch(command: ClientCommand, argv: string[]): Promise<void> {
  switch (command) {
    case 'ping': {
      const { values } = parse(argv, {});
      const { verity, json } = connect(values);
      return printResult(await verity.ping(), json);
    }
    case 'email': {
      const { values, positionals } = parse(argv, {});
      const address = one(positionals, 'one email address', 'verity email ADDRESS');
      const { verity, json } = connect(values);
      return printResult(await verity.email.validate(address), json);
    }
    case 'phone': {
      const { values, positionals } = parse(argv, {
        country: { type: 'string' },
        hlr: { type: 'boolean', default: false },
      });
      const number = one(
        positionals,
        'one phone number',
        'verity phone NUMBER [--country GB] [--hlr]',
      );
      const { verity, json } = connect(values);
      return printResult(
        await verity.phone.validate(number, { countryHint: values.country, hlr: values.hlr }),
        json,
      );
    }
    case 'ip': {
      const { values, positionals } = parse(argv, {});
      const address = one(positionals, 'one IP address', 'verity ip ADDRESS');
      const { verity, json } = connect(values);
      return printResult(await verity.ip.intel(address), json);
    }
    case 'verify': {
      const { values, positionals } = parse(argv, {
        email: { type: 'string' },
        phone: { type: 'string' },
        ip: { type: 'string' },
        country: { type: 'string' },
        explain: { type: 'boolean', default: false },
      });
      if (positionals.length > 0 || (!values.email && !values.phone && !values.ip))
        throw new UsageError(
          'usage: verity verify [--email E] [--phone P [--country GB]] [--ip I] [--explain]',
        );
      const { verity, json } = connect(values);
      const input = {
        email: values.email,
        phone: values.phone,
        ip: values.ip,
        countryHint: values.country,
      };
      return printResult(await verity.verify(input, { explain: values.explain }), json);
    }
    case 'feedback':
      return feedbackCommand(argv);
    case 'keys':
      return keysCommand(argv);
    case 'batch': {
      const [action, ...rest] = argv;
      return batchCommand(action, rest);
    }
  }
}

async function keysCommand(argv: string[]): Promise<void> {
  const usage = 'verity keys list | create NAME [--mode live|test] | rotate ID | delete ID';
  const { values, positionals } = parse(argv, { mode: { type: 'string' } });
  const [action, ...args] = positionals;
  if (values.mode !== undefined && action !== 'create')
    throw new UsageError(`--mode goes with keys create; usage: ${usage}`);
  const arg = (what: string) => one(args, what, usage);
  switch (action) {
    case 'list': {
      if (args.length > 0) throw new UsageError(`usage: ${usage}`);
      const { verity, json } = connect(values);
      return printResult(
        json ? { data: await verity.keys.list() } : await verity.keys.list(),
        json,
      );
    }
    case 'create': {
      const name = arg('a key name');
      // Absent: the server's default, a live key.
      const mode = values.mode as KeyMode | undefined;
      if (mode !== undefined && !KEY_MODES.includes(mode))
        throw new UsageError(`--mode must be one of ${KEY_MODES.join(', ')}; usage: ${usage}`);
      const { verity, json } = connect(values);
      return printResult(await verity.keys.create(name, { mode }), json);
    }
    case 'rotate': {
      const id = arg('a key id');
      const { verity, json } = connect(values);
      return printResult(await verity.keys.rotate(id), json);
    }
    case 'delete': {
      const id = arg('a key id');
      const { verity, json } = connect(values);
      await verity.keys.delete(id);
      return printResult(json ? { deleted: id } : `deleted ${id}`, json);
    }
    default:
      throw new UsageError(`usage: ${usage}`);
  }
}

/**
 * Runs an API command. Errors are printed (message, code, request id; never the key) and
 * become the documented exit code, so `main` only dispatches here.
 */
export async function clientCommand(command: ClientCommand, argv: string[]): Promise<void> {
  try {
    await dispatch(command, argv);
  } catch (error) {
    process.exitCode = exitCodeOf(error);
    process.stderr.write(`verity: ${describe(error)}\n`);
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error instanceof VerityConnectionError)
    return `cannot reach Verity at ${error.origin} (${error.reason}): check that it is running there, or pass --url / set VERITY_URL`;
  const details = error as { code?: unknown; requestId?: unknown };
  let text = error.message;
  if (typeof details.code === 'string') text += ` (${details.code})`;
  if (typeof details.requestId === 'string') text += ` [request id ${details.requestId}]`;
  return text;
}
