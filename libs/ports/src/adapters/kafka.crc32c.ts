import { createRequire } from 'node:module';

const requireFromHere = createRequire(__filename);

/** CRC-32C (Castagnoli), reflected polynomial: what Kafka's record batch v2 header carries. */
const POLY = 0x82f63b78;

/**
 * Eight 256-entry tables, back to back: table k gives the CRC of a byte followed by k zero
 * bytes, so eight input bytes fold in with eight lookups and no data-dependent loop
 * ("slicing-by-8", Intel's 2006 method).
 */
const TABLES = (() => {
  const t = new Int32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ POLY : c >>> 1;
    t[n] = c;
  }
  for (let n = 0; n < 256; n++) {
    let c = t[n];
    for (let k = 1; k < 8; k++) {
      c = t[c & 0xff] ^ (c >>> 8);
      t[k * 256 + n] = c;
    }
  }
  return t;
})();

/** CRC-32C of `bytes`, as an unsigned 32-bit integer. */
export function crc32c(bytes: Uint8Array): number {
  const t = TABLES;
  const n = bytes.length;
  const whole = n - (n & 7);
  let crc = -1;
  let i = 0;
  for (; i < whole; i += 8) {
    const x = crc ^ (bytes[i] | (bytes[i + 1] << 8) | (bytes[i + 2] << 16) | (bytes[i + 3] << 24));
    crc =
      t[1792 + (x & 0xff)] ^
      t[1536 + ((x >>> 8) & 0xff)] ^
      t[1280 + ((x >>> 16) & 0xff)] ^
      t[1024 + (x >>> 24)] ^
      t[768 + bytes[i + 4]] ^
      t[512 + bytes[i + 5]] ^
      t[256 + bytes[i + 6]] ^
      t[bytes[i + 7]];
  }
  for (; i < n; i++) crc = t[(crc ^ bytes[i]) & 0xff] ^ (crc >>> 8);
  return (crc ^ -1) >>> 0;
}

/** kafkajs's CRC-32C module, which its record batch encoder (v0/index.js) requires. */
const KAFKAJS_CRC = 'kafkajs/src/protocol/recordBatch/crc32C';
const KAFKAJS_BATCH = 'kafkajs/src/protocol/recordBatch/v0';

/**
 * Makes kafkajs (2.2.4) checksum produced record batches with {@link crc32c}. Its own CRC-32C is
 * a byte-at-a-time table loop, about a tenth of the ingest process's CPU while it splits a file
 * (every produced byte is checksummed). The record batch encoder requires that module
 * lazily, on the first produce, so replacing the cached module's exports before then is enough.
 * Returns false, and changes nothing, when the encoder was loaded already (it then keeps
 * kafkajs's function: correct, only slower). Idempotent.
 */
export function installKafkaCrc32c(): boolean {
  const path = requireFromHere.resolve(KAFKAJS_CRC);
  requireFromHere(path);
  const loaded = requireFromHere.cache[path];
  if (loaded === undefined) return false;
  if (loaded.exports === crc32c) return true;
  if (requireFromHere.cache[requireFromHere.resolve(KAFKAJS_BATCH)] !== undefined) return false;
  loaded.exports = crc32c;
  return true;
}
