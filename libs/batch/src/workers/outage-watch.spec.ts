import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { Logger } from '@nestjs/common';
import { InfraOutage } from '@verity/common';
import { createMetrics } from '@verity/observability';
import { Client } from 'pg';
import { OutageWatch } from './outage-watch';

/** A real refused connection (pg to a port nothing listens on): an infrastructure outage. */
async function refused(): Promise<Error> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const port = typeof address === 'object' && address ? address.port : 0;
  return new Client({ host: '127.0.0.1', port }).connect().then(
    () => assert.fail('connected to a closed port'),
    (e: unknown) => e as Error,
  );
}

/** A Logger that records what it would print. */
function recordingLog(): { log: Logger; lines: string[] } {
  const lines: string[] = [];
  const log = new Logger('test');
  log.warn = (m: unknown) => void lines.push(`warn ${String(m)}`);
  log.log = (m: unknown) => void lines.push(`info ${String(m)}`);
  return { log, lines };
}

describe('OutageWatch', () => {
  it('logs and counts once per outage however many failures, and tells its listeners', async () => {
    const outage = await refused();
    const { log, lines } = recordingLog();
    const metrics = createMetrics();
    const watch = new OutageWatch({
      worker: 'scorer',
      budgetMs: 1_000,
      log,
      metrics,
      now: () => 0,
    });
    const changes: boolean[] = [];
    watch.listen((waiting) => changes.push(waiting));
    for (let i = 0; i < 5; i++) watch.failed(outage);
    assert.equal(watch.waiting, true);
    watch.succeeded();
    watch.succeeded();
    watch.failed(new Error('a bug'));
    assert.deepEqual(changes, [true, false]);
    assert.equal(lines.length, 2);
    assert.match(lines[0], /^warn dependency outage began \(network: Error ECONNREFUSED\)/);
    assert.match(lines[1], /^info dependency outage ended after/);
    const text = await metrics.registry.metrics();
    assert.match(
      text,
      /verity_batch_dependency_outages_total\{worker="scorer",dependency="network"\} 1/,
    );
    assert.match(text, /verity_batch_dependency_outage\{worker="scorer"\} 0/);
  });

  it("names the dependency an adapter's InfraOutage names, and the error it carries", async () => {
    const { log, lines } = recordingLog();
    const metrics = createMetrics();
    const watch = new OutageWatch({ worker: 'assembler', budgetMs: 1_000, log, metrics });
    watch.failed(new InfraOutage('postgres', await refused()));
    assert.match(lines[0], /^warn dependency outage began \(postgres: Error ECONNREFUSED\)/);
    const text = await metrics.registry.metrics();
    assert.match(
      text,
      /verity_batch_dependency_outages_total\{worker="assembler",dependency="postgres"\} 1/,
    );
    assert.match(
      text,
      /verity_batch_dependency_outages_total\{worker="assembler",dependency="network"\} 0/,
    );
  });

  it('waits out outages within the budget only; other errors never', async () => {
    const outage = await refused();
    let now = 0;
    const { log } = recordingLog();
    const watch = new OutageWatch({
      worker: 'scorer',
      budgetMs: 1_000,
      log,
      metrics: null,
      now: () => now,
    });
    assert.equal(watch.waitsOut(new Error('a bug')), false);
    assert.equal(watch.waitsOut(outage), true);
    watch.failed(outage);
    now = 999;
    assert.equal(watch.waitsOut(outage), true);
    now = 1_000;
    assert.equal(watch.waitsOut(outage), false, 'past the budget, an outage counts as a failure');
    watch.succeeded(); // progress resets the clock
    assert.equal(watch.waitsOut(outage), true);
  });

  it('run() retries work through an outage and throws other errors at once', async () => {
    const outage = await refused();
    const { log } = recordingLog();
    const watch = new OutageWatch({ worker: 'splitter', budgetMs: 60_000, log, metrics: null });
    let calls = 0;
    const value = await watch.run(() => {
      calls++;
      return calls < 3 ? Promise.reject(outage) : Promise.resolve('split');
    });
    assert.deepEqual(
      { value, calls, waiting: watch.waiting },
      { value: 'split', calls: 3, waiting: false },
    );
    await assert.rejects(
      watch.run(() => Promise.reject(new Error('corrupt upload'))),
      /corrupt upload/,
    );
  });
});
