import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { waitFor } from '@verity/testing';
import { MemoryRowBus } from './memory.row-bus';

const message = (i: number) => ({ key: `k${i}`, value: Buffer.alloc(1024, i % 256) });

describe('MemoryRowBus retention', () => {
  it('drops what every consumer group has committed, and keeps what one has not', async () => {
    const bus = new MemoryRowBus();
    await bus.ensureTopic('chunks', 2);
    let fast = 0;
    const seenBySlow: string[] = [];
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((resolve) => (releaseSlow = resolve));
    await bus.consume('fast', 'chunks', () => Promise.resolve(void fast++));
    await bus.consume('slow', 'chunks', async (m) => {
      await slowGate;
      seenBySlow.push(m.key);
    });
    await bus.publish(
      'chunks',
      Array.from({ length: 100 }, (_, i) => message(i)),
    );
    await waitFor('fast group done', () => fast === 100, 10_000);
    // The slow group has committed nothing yet: everything stays for it.
    assert.equal(bus.retainedMessages('chunks'), 100);
    releaseSlow();
    await waitFor('slow group done', () => seenBySlow.length === 100, 10_000);
    await waitFor('log trimmed', () => bus.retainedMessages('chunks') === 0, 10_000);
    // Offsets keep counting after the trim; the lag stays exact.
    await bus.publish('chunks', [message(1), message(2)]);
    await waitFor('both groups see new ones', () => fast === 102 && seenBySlow.length === 102);
    assert.deepEqual(
      (await bus.lag('slow', 'chunks')).map((l) => l.lag),
      [0, 0],
    );
    await bus.close();
  });

  it('keeps messages published before any group exists for the first group', async () => {
    const bus = new MemoryRowBus();
    await bus.ensureTopic('early', 1);
    await bus.publish('early', [message(1), message(2)]);
    assert.equal(bus.retainedMessages('early'), 2);
    const seen: string[] = [];
    await bus.consume('g', 'early', (m) => Promise.resolve(void seen.push(`${m.key}@${m.offset}`)));
    await waitFor('consumed', () => seen.length === 2);
    assert.deepEqual(seen, ['k1@0', 'k2@1']);
    await waitFor('trimmed', () => bus.retainedMessages('early') === 0);
    await bus.close();
  });
});

describe('MemoryRowBus backpressure', () => {
  const kib = (n: number, i = 0) => ({ key: `k${i}`, value: Buffer.alloc(n * 1024, i % 256) });

  it('holds a topic to its backlog: a publish waits for the consumers, then goes; nothing is lost', async () => {
    const bus = new MemoryRowBus(10 * 1024);
    await bus.ensureTopic('chunks', 1);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const seen: number[] = [];
    await bus.consume('scorers', 'chunks', async (m) => {
      await gate;
      seen.push(m.value[0]);
    });
    await bus.publish('chunks', [kib(4, 1)]);
    await bus.publish('chunks', [kib(4, 2)]);
    assert.deepEqual(bus.backlog(), [{ topic: 'chunks', bytes: 8 * 1024 }]);
    let third = false;
    const publishing = bus.publish('chunks', [kib(4, 3)]).then(() => (third = true));
    const fourth = bus.publish('chunks', [kib(1, 4)]);
    // However long the consumer takes, the third waits: 12 KiB do not fit in 10.
    for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(third, false);
    assert.equal(bus.retainedMessages('chunks'), 2);
    open();
    await Promise.all([publishing, fourth]);
    await waitFor('all consumed', () => seen.length === 4);
    assert.deepEqual(seen, [1, 2, 3, 4]);
    await waitFor('backlog empty', () => bus.backlog()[0].bytes === 0);
    await bus.close();
  });

  it('lets a batch larger than the limit go when the topic holds nothing', async () => {
    const bus = new MemoryRowBus(4 * 1024);
    await bus.ensureTopic('chunks', 1);
    await bus.publish('chunks', [kib(8, 1), kib(8, 2)]);
    assert.deepEqual(bus.backlog(), [{ topic: 'chunks', bytes: 16 * 1024 }]);
    await bus.close();
  });

  it('keeps topics apart: a full topic never holds up another', async () => {
    const bus = new MemoryRowBus(4 * 1024);
    await bus.ensureTopic('chunks', 1);
    await bus.ensureTopic('progress', 1);
    await bus.publish('chunks', [kib(4, 1)]);
    const waiting = bus.publish('chunks', [kib(4, 2)]);
    await bus.publish('progress', [kib(2, 3)]);
    assert.deepEqual(
      bus.backlog().map((b) => b.bytes),
      [4 * 1024, 2 * 1024],
    );
    await bus.close();
    await assert.rejects(waiting, /closed/);
  });
});
