import type { AppConfig } from '@verity/config';

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};
/** Fields every line carries; a person needs none of them. */
const HIDDEN = new Set(['level', 'time', 'msg', 'err', 'service', 'name', 'pid', 'hostname']);

/** Readable lines for LOG_FORMAT=text, or =auto when stdout is a terminal. */
export function writesText(format: AppConfig['LOG_FORMAT']): boolean {
  return format === 'text' || (format === 'auto' && process.stdout.isTTY === true);
}

/**
 * One pino JSON line as a person reads it: `15:04:05 WARN  message  key=value …`. An error
 * shows its message; its stack only on debug and trace lines (the full error is for whoever
 * turned LOG_LEVEL down to debug).
 */
export function formatLogLine(json: string): string {
  const line = JSON.parse(json) as Record<string, unknown>;
  const level = typeof line.level === 'number' ? line.level : 30;
  const time = new Date(typeof line.time === 'number' ? line.time : Date.now());
  const clock = time.toTimeString().slice(0, 8);
  const fields = Object.entries(line)
    .filter(([key, value]) => !HIDDEN.has(key) && value !== undefined)
    .map(([key, value]) => `${key}=${fieldText(value)}`);
  const err = line.err as { message?: string; stack?: string } | undefined;
  let text = `${clock} ${(LEVEL_NAMES[level] ?? String(level)).padEnd(5)} ${typeof line.msg === 'string' ? line.msg : ''}`;
  if (err?.message) text += `: ${err.message}`;
  if (fields.length > 0) text += `  ${fields.join(' ')}`;
  if (err?.stack && level <= 20) text += `\n${err.stack}`;
  return text + '\n';
}

/**
 * A field as a person reads it on one line: a list shows how many it holds (the JSON log has
 * every item), anything else its JSON.
 */
function fieldText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value)) return String(value.length);
  return JSON.stringify(value);
}

/** A pino destination writing {@link formatLogLine}s to stdout (a terminal: writes are synchronous). */
export function terminalStream(): { write(line: string): void } {
  return { write: (line) => void process.stdout.write(formatLogLine(line)) };
}
