import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { deferred, uniqueName, waitFor, type PortHarness } from './contract-helpers';
import type { BusMessage, RowBus, Subscription } from '@verity/ports';

const msg = (key: string, value: string, partition?: number) => ({
  key,
  value: Buffer.from(value),
  partition,
});

/** A handler that records what it is given. */
const collect =
  <T>(into: T[]) =>
  (item: T): Promise<void> => {
    into.push(item);
    return Promise.resolve();
  };

/**
 * The RowBus contract: every adapter must pass it. `harness.create` is called once per
 * suite; each test uses its own topic and group, and stops its consumers.
 */
export function rowBusContract<B extends RowBus>(
  name: string,
  harness: PortHarness<B>,
  opts: { skip?: string | false; timeoutMs?: number } = {},
): void {
  const timeout = opts.timeoutMs ?? 60_000;
  describe(`RowBus contract: ${name}`, { skip: opts.skip, timeout: timeout * 8 }, () => {
    let bus: B;
    const subs: Subscription[] = [];
    const consume = async (...args: Parameters<RowBus['consume']>) => {
      const sub = await bus.consume(...args);
      subs.push(sub);
      return sub;
    };
    before(async () => {
      bus = await harness.create();
    });
    after(async () => {
      await Promise.all(subs.map((s) => s.stop()));
      await harness.dispose(bus);
    });

    it('answers a readiness ping', { timeout }, async () => {
      await bus.ping();
    });

    it('keeps order per partition and routes a key to one partition', { timeout }, async () => {
      const topic = uniqueName('order');
      await bus.ensureTopic(topic, 3);
      await bus.ensureTopic(topic, 3); // idempotent
      const seen: BusMessage[] = [];
      await consume(uniqueName('g'), topic, collect(seen), { concurrency: 3 });
      const sent = Array.from({ length: 30 }, (_, i) => msg(`job-${i % 3}`, String(i), i % 3));
      await bus.publish(topic, sent.slice(0, 15));
      await bus.publish(topic, sent.slice(15));
      await bus.publish(topic, [msg('same-key', 'a'), msg('same-key', 'b'), msg('same-key', 'c')]);
      await waitFor('33 messages', () => seen.length >= 33, timeout);
      for (let p = 0; p < 3; p++) {
        const inPartition = seen.filter((m) => m.partition === p && m.key !== 'same-key');
        assert.deepEqual(
          inPartition.map((m) => m.value.toString()),
          sent.filter((s) => s.partition === p).map((s) => s.value.toString()),
        );
        const offsets = seen.filter((m) => m.partition === p).map((m) => BigInt(m.offset));
        assert.deepEqual(
          offsets,
          [...offsets].sort((a, b) => (a < b ? -1 : 1)),
        );
      }
      const keyed = seen.filter((m) => m.key === 'same-key');
      assert.equal(new Set(keyed.map((m) => m.partition)).size, 1);
      assert.deepEqual(
        keyed.map((m) => m.value.toString()),
        ['a', 'b', 'c'],
      );
      assert.ok(seen.every((m) => m.topic === topic));
    });

    it(
      'a slow consumer makes a fast publisher wait, never lose: every message once, in order',
      { timeout },
      async () => {
        const topic = uniqueName('backpressure');
        await bus.ensureTopic(topic, 1);
        const seen: string[] = [];
        await consume(uniqueName('g'), topic, async (m) => {
          await sleep(5);
          seen.push(m.value.toString('utf8', 0, 8));
        });
        // 2 MiB in 16 KiB messages, each publish awaited, as the splitter publishes.
        const count = 128;
        const value = (i: number) =>
          Buffer.from(
            String(i)
              .padStart(8, '0')
              .padEnd(16 * 1024, '.'),
          );
        for (let i = 0; i < count; i += 4)
          await bus.publish(
            topic,
            [0, 1, 2, 3].map((j) => ({ key: 'k', value: value(i + j), partition: 0 })),
          );
        await waitFor(`${count} messages`, () => seen.length >= count, timeout);
        assert.deepEqual(
          seen,
          Array.from({ length: count }, (_, i) => String(i).padStart(8, '0')),
        );
      },
    );

    it('redelivers a message whose handler rejected, before later ones', { timeout }, async () => {
      const topic = uniqueName('redeliver');
      await bus.ensureTopic(topic, 1);
      await bus.publish(
        topic,
        ['0', '1', '2', '3'].map((v) => msg('k', v, 0)),
      );
      const deliveries: string[] = [];
      let failed = false;
      const group = uniqueName('g');
      await consume(group, topic, (m) => {
        deliveries.push(m.value.toString());
        if (m.value.toString() === '1' && !failed) {
          failed = true;
          return Promise.reject(new Error('transient'));
        }
        return Promise.resolve();
      });
      await waitFor('all handled', () => deliveries.at(-1) === '3', timeout);
      assert.deepEqual(deliveries, ['0', '1', '1', '2', '3']);
      await waitFor(
        'lag 0',
        async () => (await bus.lag(group, topic)).every((l) => l.lag === 0),
        timeout,
      );
    });

    it(
      'takes no message while paused, and carries on in order once resumed',
      { timeout },
      async () => {
        const topic = uniqueName('pause');
        await bus.ensureTopic(topic, 1);
        const seen: string[] = [];
        const paused = await consume(uniqueName('g'), topic, (m) => {
          seen.push(m.value.toString());
          return Promise.resolve();
        });
        await bus.publish(topic, [msg('k', '0', 0)]);
        await waitFor('first message', () => seen.length === 1, timeout);
        paused.pause();
        await bus.publish(topic, [msg('k', '1', 0), msg('k', '2', 0)]);
        // Longer than a fetch's long-poll (1 s): an unpaused consumer would have them by now.
        await sleep(2_500);
        assert.deepEqual(seen, ['0'], 'delivered while paused');
        paused.resume();
        await waitFor('the rest', () => seen.length === 3, timeout);
        assert.deepEqual(seen, ['0', '1', '2']);
      },
    );

    it(
      'hands an uncommitted message to the next consumer after one dies',
      { timeout },
      async () => {
        const topic = uniqueName('crash');
        const group = uniqueName('g');
        await bus.ensureTopic(topic, 1);
        await bus.publish(
          topic,
          ['a', 'b'].map((v) => msg('k', v, 0)),
        );
        const started = deferred();
        const dying = deferred();
        const first = await bus.consume(group, topic, async () => {
          started.resolve();
          await dying.promise; // the "process" dies in here: the handler never completes
        });
        await started.promise;
        const stopped = first.stop();
        dying.reject(new Error('killed'));
        await stopped;
        assert.deepEqual(
          (await bus.lag(group, topic)).map((l) => l.lag),
          [2],
        );
        const seen: string[] = [];
        await consume(group, topic, (m) => collect(seen)(m.value.toString()));
        await waitFor('both redelivered', () => seen.length >= 2, timeout);
        assert.deepEqual(seen, ['a', 'b']);
      },
    );

    it('shares partitions between consumers of one group', { timeout }, async () => {
      const topic = uniqueName('share');
      const group = uniqueName('g');
      await bus.ensureTopic(topic, 4);
      const byA: BusMessage[] = [];
      const byB: BusMessage[] = [];
      await consume(group, topic, collect(byA), { concurrency: 4 });
      const b = await bus.consume(group, topic, collect(byB), { concurrency: 4 });
      await bus.publish(
        topic,
        Array.from({ length: 40 }, (_, i) => msg(`k${i}`, String(i), i % 4)),
      );
      await waitFor('40 messages', () => byA.length + byB.length >= 40, timeout);
      const all = [...byA, ...byB].map((m) => m.value.toString());
      assert.equal(new Set(all).size, 40, 'every message seen');
      assert.equal(all.length, 40, 'no message seen twice');
      assert.ok(byA.length > 0 && byB.length > 0, 'both consumers got partitions');
      const partsA = new Set(byA.map((m) => m.partition));
      assert.ok(
        byB.every((m) => !partsA.has(m.partition)),
        'a partition has one owner',
      );

      await b.stop();
      const bBefore = byB.length;
      const aBefore = byA.length;
      await bus.publish(
        topic,
        Array.from({ length: 20 }, (_, i) => msg(`k${i}`, `late-${i}`, i % 4)),
      );
      await waitFor('A takes over', () => byA.length - aBefore >= 20, timeout);
      assert.equal(byB.length, bBefore);
      assert.equal(byA.length - aBefore, 20);
    });

    it('reports lag per partition', { timeout }, async () => {
      const topic = uniqueName('lag');
      const group = uniqueName('g');
      await bus.ensureTopic(topic, 2);
      await bus.publish(topic, [msg('a', '1', 0), msg('a', '2', 0), msg('b', '3', 1)]);
      const lag = await bus.lag(group, topic);
      assert.deepEqual(
        [...lag].sort((x, y) => x.partition - y.partition),
        [
          { partition: 0, lag: 2 },
          { partition: 1, lag: 1 },
        ],
      );
      let n = 0;
      await consume(group, topic, () => Promise.resolve(void n++));
      await waitFor(
        'lag 0',
        async () => n >= 3 && (await bus.lag(group, topic)).every((l) => l.lag === 0),
        timeout,
      );
    });
  });
}
