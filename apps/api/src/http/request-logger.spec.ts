import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import pino from 'pino';
import { loggerOptions } from '@verity/platform';
import { lazyRequestLogger } from './request-logger';

function memoryLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  const logger = pino(loggerOptions({ LOG_LEVEL: 'info' }, 'test'), sink);
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof logger.child;
  return { logger, lines, children: () => children };
}

describe('request.log (lazyRequestLogger)', () => {
  it('makes no pino child until the request logs', () => {
    const { logger, children } = memoryLogger();
    const log = lazyRequestLogger(logger, { reqId: 'r-1' }, {});
    assert.equal(log.level, 'info');
    assert.equal(children(), 0);
  });

  it('logs through a child carrying the request id, redacted like the root', () => {
    const { logger, lines, children } = memoryLogger();
    const log = lazyRequestLogger(logger, { reqId: 'r-2' }, {});
    log.error({ err: new Error('boom'), apiKey: 'vrt_live_AAAAbbbbCCCCddddEEEEffff' }, 'failed');
    log.info('second line');
    log.debug('below the level: not written');
    assert.equal(children(), 1);
    assert.equal(lines.length, 2);
    assert.equal(lines[0].reqId, 'r-2');
    assert.equal(lines[0].msg, 'failed');
    assert.equal(lines[0].apiKey, '[redacted]');
    assert.equal(lines[1].reqId, 'r-2');
  });

  it('honours a route log level and a level set on the request', () => {
    const { logger, lines } = memoryLogger();
    const quiet = lazyRequestLogger(logger, { reqId: 'r-3' }, { level: 'warn' });
    assert.equal(quiet.level, 'warn');
    quiet.info('dropped');
    quiet.warn('kept');
    quiet.level = 'error';
    quiet.warn('dropped too');
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['kept'],
    );
  });
});
