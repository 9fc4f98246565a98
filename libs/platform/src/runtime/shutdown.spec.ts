import 'reflect-metadata';
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Injectable, Module, type BeforeApplicationShutdown } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { HealthRegistry } from '../health/health.registry';
import { closeGracefully } from './shutdown';

describe('closeGracefully', () => {
  it('drains readiness first, then closes the app, then each resource in order', async () => {
    const order: string[] = [];

    @Injectable()
    class Consumer implements BeforeApplicationShutdown {
      constructor(private readonly registry: HealthRegistry) {}
      beforeApplicationShutdown(): void {
        order.push(`consumer stops (draining=${this.registry.draining})`);
      }
    }
    @Module({ providers: [HealthRegistry, Consumer] })
    class TestModule {}

    const app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    const health = app.get(HealthRegistry);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });

    await closeGracefully(logger, app, [
      { name: 'engines', close: () => Promise.resolve(void order.push('engines')) },
      { name: 'database', close: () => Promise.resolve(void order.push('database')) },
    ]);

    assert.equal(health.draining, true);
    assert.deepEqual(order, ['consumer stops (draining=true)', 'engines', 'database']);
    const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
    assert.deepEqual(messages, [
      'draining: /readyz answers 503, no new work is taken',
      'closing the application: consumers, then HTTP, then queue, bus and blob store',
      'application closed: in-flight chunks and requests finished, offsets committed',
      'engines closed',
      'database closed',
    ]);
  });

  it('closes the remaining resources after a failing step, then rejects (the caller exits 1)', async () => {
    @Module({})
    class EmptyModule {}
    const app = await NestFactory.createApplicationContext(EmptyModule, { logger: false });
    const logger = pino({ level: 'silent' });
    let databaseClosed = false;
    await assert.rejects(
      closeGracefully(logger, app, [
        { name: 'engines', close: () => Promise.reject(new Error('resolver stuck')) },
        { name: 'database', close: () => Promise.resolve(void (databaseClosed = true)) },
      ]),
      /resolver stuck/,
    );
    assert.equal(databaseClosed, true);
  });
});
