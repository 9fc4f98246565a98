import Encoder from 'kafkajs/src/protocol/encoder';

/** Marks kafkajs's Encoder as patched, so the install is idempotent. */
const PATCHED = Symbol.for('verity.kafkajs.encoder.unzeroed');

/**
 * Makes kafkajs (2.2.4) grow its encoders' buffers without zero-filling them. Every layer of a
 * produce request (record, record batch, partition, topic, request, size prefix) is its own
 * Encoder that grows by doubling into a fresh `Buffer.alloc`, so each produced byte was
 * zero-filled about ten times before being overwritten: the largest single item of the ingest
 * process's profile while it splits a file (7 % of its CPU). An Encoder only ever
 * writes at its offset and moves the offset past what it wrote, and only the bytes before the
 * offset leave it (`buffer` is `buf.slice(0, offset)`), so no byte the allocation left behind is
 * ever read or sent. Patches the shared prototype; idempotent.
 */
export function installKafkaEncoderAlloc(): void {
  const proto = Encoder.prototype as Encoder & { [PATCHED]?: true };
  if (proto[PATCHED]) return;
  proto.ensureAvailable = function ensureAvailable(this: Encoder, length: number): void {
    if (this.offset + length <= this.buf.length) return;
    const grown = Buffer.allocUnsafeSlow(Encoder.nextPowerOfTwo(this.offset + length));
    this.buf.copy(grown, 0, 0, this.offset);
    this.buf = grown;
  };
  proto[PATCHED] = true;
}
