import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import kafkajsCrc32C from 'kafkajs/src/protocol/recordBatch/crc32C/crc32C';
import { SeededRandom } from '@verity/testing';
import { crc32c, installKafkaCrc32c } from './kafka.crc32c';

// Loaded after the install, as kafkajs loads them on its first produce (see the module's doc).
const load = createRequire(__filename);

describe('crc32c', () => {
  it('gives the CRC-32C check value (RFC 3720 B.4: "123456789" → 0xE3069283)', () => {
    assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
    assert.equal(crc32c(Buffer.alloc(0)), 0);
    assert.equal(crc32c(Buffer.alloc(32)), 0x8a9136aa); // RFC 3720 B.4: 32 bytes of zeroes
  });

  it("agrees with kafkajs's own at every length and alignment", () => {
    const random = new SeededRandom(14);
    const pool = Buffer.alloc(4096);
    for (let i = 0; i < pool.length; i++) pool[i] = Math.floor(random.next() * 256);
    for (let length = 0; length <= 67; length++) {
      for (let offset = 0; offset < 9; offset++) {
        const bytes = pool.subarray(offset, offset + length);
        assert.equal(
          crc32c(bytes),
          kafkajsCrc32C(bytes) >>> 0,
          `length ${length}, offset ${offset}`,
        );
      }
    }
    assert.equal(crc32c(pool), kafkajsCrc32C(pool) >>> 0);
  });
});

describe('installKafkaCrc32c', () => {
  it("makes kafkajs's record batches carry crc32c's checksum of their body", async () => {
    assert.equal(installKafkaCrc32c(), true);
    assert.equal(installKafkaCrc32c(), true, 'idempotent');
    assert.equal(load('kafkajs/src/protocol/recordBatch/crc32C'), crc32c);
    const { RecordBatch } = load(
      'kafkajs/src/protocol/recordBatch/v0',
    ) as typeof import('kafkajs/src/protocol/recordBatch/v0');
    const Record = load(
      'kafkajs/src/protocol/recordBatch/record/v0',
    ) as typeof import('kafkajs/src/protocol/recordBatch/record/v0');
    const records = ['a', 'bb', 'x'.repeat(1000)].map((v) =>
      Record({ key: null, value: Buffer.from(v) }),
    );
    const { buffer } = await RecordBatch({ records });
    // FirstOffset int64, Length int32, PartitionLeaderEpoch int32, Magic int8, then the CRC of
    // everything after it (Kafka's DefaultRecordBatch layout).
    const crcAt = 8 + 4 + 4 + 1;
    assert.equal(buffer[crcAt - 1], 2, 'magic 2');
    assert.equal(buffer.readUInt32BE(crcAt), kafkajsCrc32C(buffer.subarray(crcAt + 4)) >>> 0);
  });
});
