import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import pino, { type Logger } from 'pino';
import { loggerOptions } from '@verity/platform';
import { accessLogRecorder } from './access-log';
import { registerRequestHooks } from './request-hooks';

/** A pino logger with the API's options, its info and warn lines kept apart (pino.multistream). */
function capturedLogger(level = 'info'): { logger: Logger; info: string[]; warn: string[] } {
  const info: string[] = [];
  const warn: string[] = [];
  const sink = (lines: string[]) => ({ write: (line: string) => void lines.push(line) });
  const logger = pino(
    loggerOptions({ LOG_LEVEL: level as 'info' }, 'verity-api'),
    pino.multistream([
      { level: 'info', stream: sink(info) },
      { level: 'warn', stream: sink(warn) },
    ]),
  );
  return { logger, info, warn };
}

/** Serves two routes with the access log on, sends `requests`, closes, and returns the log. */
async function serve(
  requests: { method: 'GET' | 'POST'; url: string; id: string }[],
  level = 'info',
): Promise<{ info: string[]; warn: string[] }> {
  const { logger, info, warn } = capturedLogger(level);
  const app = Fastify({
    genReqId: (req) => String(req.headers['x-test-id']),
  });
  const recorder = accessLogRecorder(app, logger);
  registerRequestHooks(app, recorder ? [recorder] : [], () => undefined);
  app.get('/v1/batch/:jobId', () => ({ ok: true }));
  app.post('/v1/email/validate', (_req, reply) => reply.code(402).send({ error: 'x' }));
  for (const r of requests) await app.inject({ ...r, headers: { 'x-test-id': r.id } });
  await app.close();
  return { info, warn };
}

describe('access log', () => {
  it('writes, for each request, the line pino itself writes for the same fields', async () => {
    const { info } = await serve([
      { method: 'GET', url: '/v1/batch/7?sig=secret', id: 'plain-1' },
      { method: 'POST', url: '/v1/email/validate', id: 'quote " back \\ slash\n é 😀' },
      { method: 'GET', url: '/nowhere', id: 'unmatched-3' },
    ]);
    assert.equal(info.length, 3);
    const reference = capturedLogger();
    for (const line of info) {
      const fields = JSON.parse(line) as Record<string, unknown>;
      const { reqId, route, method, status, latency_ms } = fields;
      reference.logger.info({ reqId, route, method, status, latency_ms }, 'request completed');
      const pinoLine = reference.info.at(-1) ?? '';
      const sameTime = pinoLine.replace(/"time":\d+/, `"time":${String(fields.time)}`);
      assert.equal(line, sameTime);
    }
    const parsed = info.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      parsed.map((f) => [f.reqId, f.route, f.method, f.status, f.service]),
      [
        ['plain-1', '/v1/batch/:jobId', 'GET', 200, 'verity-api'],
        ['quote " back \\ slash\n é 😀', '/v1/email/validate', 'POST', 402, 'verity-api'],
        ['unmatched-3', 'unmatched', 'GET', 404, 'verity-api'],
      ],
    );
    for (const f of parsed) assert.equal(typeof f.latency_ms, 'number');
  });

  it('tells the destination the level of each line, as pino does (warn streams get none)', async () => {
    const { info, warn } = await serve([{ method: 'GET', url: '/v1/batch/1', id: 'a' }]);
    assert.equal(info.length, 1);
    assert.deepEqual(warn, []);
  });

  it('writes nothing when the level is above info', async () => {
    const { info, warn } = await serve([{ method: 'GET', url: '/v1/batch/1', id: 'a' }], 'warn');
    assert.deepEqual([info, warn], [[], []]);
  });
});
