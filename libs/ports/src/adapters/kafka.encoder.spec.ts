import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import Encoder from 'kafkajs/src/protocol/encoder';
import { SeededRandom } from '@verity/testing';
import { installKafkaEncoderAlloc } from './kafka.encoder';

const load = createRequire(__filename);

interface ProduceRequest {
  encode(): Promise<Encoder>;
}
type Produce = (request: {
  acks: number;
  timeout: number;
  topicData: {
    topic: string;
    partitions: {
      partition: number;
      messages: { key: Buffer; value: Buffer; timestamp: string }[];
    }[];
  }[];
}) => ProduceRequest;
type Frame = (request: {
  correlationId: number;
  clientId: string;
  request: { apiKey: number; apiVersion: number; encode(): Promise<Encoder> };
}) => Promise<Encoder>;

const produce = load('kafkajs/src/protocol/requests/produce/v3/request') as Produce;
const frame = load('kafkajs/src/protocol/request') as Frame;

/** A whole produce request as kafkajs puts it on the wire (size prefix included). */
async function producedBytes(values: Buffer[]): Promise<Buffer> {
  const request = produce({
    acks: -1,
    timeout: 30_000,
    topicData: [
      {
        topic: 'verity.chunks',
        partitions: values.map((value, partition) => ({
          partition,
          messages: [{ key: Buffer.from(`job_${partition}`), value, timestamp: '1764115200000' }],
        })),
      },
    ],
  });
  const encoded = await frame({
    correlationId: 7,
    clientId: 'verity',
    request: { apiKey: 0, apiVersion: 3, encode: () => request.encode() },
  });
  return encoded.buffer;
}

describe('installKafkaEncoderAlloc', () => {
  it('leaves every produce request byte-identical, across buffer growth', async () => {
    const random = new SeededRandom(15);
    const sizes = [0, 1, 500, 511, 512, 513, 4095, 70_000, 300 * 1024, 1024 * 1024];
    const values = sizes.map((size) => {
      const value = Buffer.alloc(size);
      for (let i = 0; i < size; i++) value[i] = Math.floor(random.next() * 256);
      return value;
    });
    const batches = [values, values.slice(0, 3), values.slice(7), [values[8], values[8]]];
    const stock = await Promise.all(batches.map(producedBytes));

    installKafkaEncoderAlloc();
    installKafkaEncoderAlloc(); // idempotent
    // Memory the allocator hands back is not zeroed: dirty some before encoding again.
    for (let i = 0; i < 64; i++) Buffer.allocUnsafeSlow(1 << 20).fill(0xa5);
    const patched = await Promise.all(batches.map(producedBytes));

    for (const [i, bytes] of patched.entries()) {
      assert.equal(bytes.length, stock[i].length, `batch ${i}: length`);
      assert.ok(bytes.equals(stock[i]), `batch ${i}: bytes`);
    }
  });

  it('grows an encoder to hold what was written, and shows only that', () => {
    installKafkaEncoderAlloc();
    const encoder = new Encoder(3);
    const value = Buffer.alloc(5000, 7);
    encoder.writeInt32(42).writeBytes(value).writeInt32(-1);
    assert.equal(encoder.size(), 4 + 4 + 5000 + 4);
    assert.ok(encoder.buf.length >= encoder.size());
    const out = encoder.buffer;
    assert.equal(out.length, encoder.size());
    assert.equal(out.readInt32BE(0), 42);
    assert.equal(out.readInt32BE(4), 5000);
    assert.ok(out.subarray(8, 5008).equals(value));
    assert.equal(out.readInt32BE(5008), -1);
  });
});
