import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { formatLogLine } from './terminal.format';

function lineOf(log: (logger: pino.Logger) => void): string {
  let written = '';
  const logger = pino(
    { level: 'trace', base: { service: 'verity' } },
    { write: (l: string) => void (written += formatLogLine(l)) },
  );
  log(logger);
  return written;
}

describe('terminal log lines', () => {
  it('a warning: time, level, message and its fields; no JSON', () => {
    const line = lineOf((l) =>
      l.warn({ source: 'tor_exits', age_days: 9 }, 'IP data set is stale'),
    );
    assert.match(
      line,
      /^\d\d:\d\d:\d\d WARN {2}IP data set is stale {2}source=tor_exits age_days=9\n$/,
    );
  });

  it('a list field shows how many it holds, so the offline list warning stays one line', () => {
    const failed = Array.from({ length: 8 }, (_, i) => ({
      source: `list-${i}`,
      error: 'fetch failed',
    }));
    const line = lineOf((l) => l.warn({ missing: ['a', 'b', 'c'], failed }, 'open-data lists'));
    assert.match(line, /^\d\d:\d\d:\d\d WARN {2}open-data lists {2}missing=3 failed=8\n$/);
  });

  it('an error shows its message; its stack only at debug', () => {
    const error = new Error('connect ECONNREFUSED 127.0.0.1:6379');
    assert.match(
      lineOf((l) => l.error({ err: error }, 'redis down')),
      /ERROR redis down: connect ECONNREFUSED 127\.0\.0\.1:6379\n$/,
    );
    assert.match(
      lineOf((l) => l.debug({ err: error }, 'redis down')),
      /DEBUG redis down: connect.*\nError: connect ECONNREFUSED[^]*\n {4}at /,
    );
  });
});
