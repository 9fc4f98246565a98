import 'reflect-metadata';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';
import { METRICS } from '../tokens';
import { HealthController } from './health.controller';
import { DRAINING_CHECK, HealthRegistry } from './health.registry';

describe('HealthRegistry draining', () => {
  it('reports not_ready without running the checks once draining', async () => {
    const health = new HealthRegistry();
    let runs = 0;
    health.register('bus', () => {
      runs++;
      return Promise.resolve({ ok: true });
    });
    assert.equal(health.draining, false);
    assert.deepEqual(await health.run(), { status: 'ready', checks: { bus: { ok: true } } });
    assert.equal(runs, 1);

    health.drain();
    health.drain(); // idempotent
    assert.equal(health.draining, true);
    const report = await health.run();
    assert.equal(report.status, 'not_ready');
    assert.deepEqual(Object.keys(report.checks), [DRAINING_CHECK]);
    assert.equal(report.checks[DRAINING_CHECK].ok, false);
    assert.match(String(report.checks[DRAINING_CHECK].detail), /^shutting down since \d{4}-/);
    assert.equal(runs, 1, 'checks are not run while draining');
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
    assert.deepEqual(ready.json(), { status: 'ready', checks: { database: { ok: true } } });

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
