import 'reflect-metadata';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { METRICS } from '../tokens';
import { HealthController } from './health.controller';
import { CHECK_TIMEOUT_MS, DRAINING_CHECK, HealthRegistry } from './health.registry';

describe('HealthRegistry draining', () => {
  it('reports not_ready without running the checks once draining', async () => {
    const health = new HealthRegistry();
    let runs = 0;
    health.register('bus', () => {
      runs++;
      return Promise.resolve({ ok: true });
    });
    assert.equal(health.draining, false);
    assert.deepEqual(await health.run(), {
      status: 'ready',
      checks: { bus: { ok: true, required: true } },
    });
    assert.equal(runs, 1);

    health.drain();
    health.drain(); // idempotent
    assert.equal(health.draining, true);
    const report = await health.run();
    assert.equal(report.status, 'not_ready');
    assert.deepEqual(Object.keys(report.checks), [DRAINING_CHECK]);
    assert.equal(report.checks[DRAINING_CHECK].ok, false);
    assert.equal(report.checks[DRAINING_CHECK].required, true);
    assert.match(String(report.checks[DRAINING_CHECK].detail), /^shutting down since \d{4}-/);
    assert.equal(runs, 1, 'checks are not run while draining');
  });
});

describe('HealthRegistry required and reported checks', () => {
  it('is ready while only report-only checks fail, and shows them failing', async () => {
    const health = new HealthRegistry();
    health.register('database', () => Promise.resolve({ ok: true }));
    health.register('row_bus', () => Promise.reject(new Error('connect ECONNREFUSED')));
    health.register('blob_store', () => Promise.resolve({ ok: false, detail: 'bucket missing' }));
    health.reportOnly(['row_bus', 'blob_store']);
    assert.deepEqual(await health.run(), {
      status: 'ready',
      checks: {
        database: { ok: true, required: true },
        row_bus: { ok: false, required: false, detail: 'connect ECONNREFUSED' },
        blob_store: { ok: false, required: false, detail: 'bucket missing' },
      },
    });
  });

  it('is not ready when a required check fails', async () => {
    const health = new HealthRegistry();
    health.register('database', () => Promise.resolve({ ok: true }));
    health.register('row_bus', () => Promise.reject(new Error('connect ECONNREFUSED')));
    health.reportOnly(['job_queue']);
    const report = await health.run();
    assert.equal(report.status, 'not_ready');
    assert.deepEqual(report.checks.row_bus, {
      ok: false,
      required: true,
      detail: 'connect ECONNREFUSED',
    });
  });

  it('answers with a hanging check marked timed out, and runs it once while it hangs', async () => {
    const health = new HealthRegistry();
    let started = 0;
    health.register('database', () => Promise.resolve({ ok: true }));
    health.register('blob_store', () => {
      started++;
      return new Promise<never>(() => undefined); // a black hole: never settles
    });
    health.reportOnly(['blob_store']);
    const expected = {
      status: 'ready',
      checks: {
        database: { ok: true, required: true },
        blob_store: {
          ok: false,
          required: false,
          timed_out: true,
          detail: `no answer within ${CHECK_TIMEOUT_MS} ms`,
        },
      },
    };
    assert.deepEqual(await health.run(), expected);
    assert.deepEqual(await health.run(), expected);
    assert.equal(started, 1, 'the second run joins the pending check instead of starting another');
  });
});

describe('HealthController while draining', () => {
  let app: NestFastifyApplication;
  let health: HealthRegistry;

  before(async () => {
    // A database that always answers: readiness fails only because of draining.
    const db = { query: () => Promise.resolve([{ '?column?': 1 }]) };
    @Module({
      controllers: [HealthController],
      providers: [
        HealthRegistry,
        { provide: DataSource, useValue: db },
        { provide: METRICS, useValue: null },
      ],
    })
    class TestModule {}
    app = await NestFactory.create<NestFastifyApplication>(TestModule, new FastifyAdapter(), {
      logger: false,
    });
    await app.init();
    await app.getHttpAdapter().getInstance().ready();
    health = app.get(HealthRegistry);
  });

  after(async () => {
    await app?.close();
  });

  it('answers /readyz 503 in the error shape at once, while /healthz stays 200', async () => {
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(ready.statusCode, 200);
    assert.deepEqual(ready.json(), {
      status: 'ready',
      checks: { database: { ok: true, required: true } },
    });

    health.drain();
    const draining = await app.inject({ method: 'GET', url: '/readyz' });
    assert.equal(draining.statusCode, 503);
    const body = draining.json<{
      error: { code: string; message: string };
      status: string;
      checks: Record<string, { ok: boolean }>;
    }>();
    assert.deepEqual(body.error, {
      code: 'service_unavailable',
      message: `not ready: ${DRAINING_CHECK}`,
    });
    assert.equal(body.status, 'not_ready');
    assert.equal(body.checks[DRAINING_CHECK].ok, false);

    const live = await app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(live.statusCode, 200);
    assert.deepEqual(live.json(), { status: 'ok' });
  });
});
