import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import pino from 'pino';
import { DataSource } from 'typeorm';
import { createTestDatabase, type TestDatabase } from '@verity/testing';
import { loggerOptions } from './logger';

/** A logger with the production options, writing its lines into an array. */
function memoryLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { logger: pino(loggerOptions({ LOG_LEVEL: 'info' }, 'test'), sink), lines };
}

describe('logger redaction', () => {
  const secret = 'whsec_this-must-never-be-logged-0123456789';
  const apiKey = 'vrt_live_AAAAbbbbCCCCddddEEEEffff';

  it('censors keys, tokens, signatures and secrets in logged objects', () => {
    const { logger, lines } = memoryLogger();
    logger.info(
      {
        req: { headers: { 'x-api-key': apiKey, authorization: `Bearer ${secret}` } },
        webhook: { secret },
        sig: 'abc123signature',
      },
      'request',
    );
    const out = lines.join('');
    for (const value of [apiKey, secret, 'abc123signature']) assert.ok(!out.includes(value), out);
  });

  describe('on error paths', () => {
    let database: TestDatabase;
    let dataSource: DataSource;
    before(async () => {
      database = await createTestDatabase();
      dataSource = await new DataSource({ type: 'postgres', url: database.url }).initialize();
      await dataSource.query('CREATE TABLE accounts (id int primary key, webhook_secret text)');
    });
    after(async () => {
      await dataSource.destroy();
      await database.drop();
    });

    it('logs a failed statement by name and SQLSTATE, never its parameters or values', async () => {
      await dataSource.query('INSERT INTO accounts VALUES ($1, $2)', [1, secret]);
      const failures: unknown[] = [];
      // A unique violation quotes the key in its detail; a bad cast quotes the value in its message.
      await dataSource
        .query('INSERT INTO accounts VALUES ($1, $2)', [1, secret])
        .catch((e: unknown) => failures.push(e));
      await dataSource
        .query('SELECT $1::int AS n', [secret])
        .catch((e: unknown) => failures.push(e));
      assert.equal(failures.length, 2);
      const { logger, lines } = memoryLogger();
      for (const err of failures) logger.error({ err }, 'internal error');
      const out = lines.join('');
      assert.ok(!out.includes(secret), out);
      const [dup, cast] = lines.map((l) => JSON.parse(l) as { err: Record<string, unknown> });
      assert.equal(dup.err.code, '23505');
      assert.equal(dup.err.statement, 'INSERT INTO accounts');
      assert.equal(cast.err.code, '22P02');
      assert.equal(cast.err.statement, 'SELECT $1');
      assert.equal(dup.err.parameters, undefined);
    });

    it('keeps ordinary errors whole', () => {
      const { logger, lines } = memoryLogger();
      logger.error({ err: new Error('disk full') }, 'failed');
      assert.match(lines.join(''), /disk full/);
    });
  });
});
