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
