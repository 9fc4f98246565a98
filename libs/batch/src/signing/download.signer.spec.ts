import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { VerityError } from '@verity/common';
import { assertDownloadToken, signDownload, verifyDownload } from './download.signer';

const SECRET = 'a-signing-secret-of-at-least-32-characters';
const NOW = 1_750_000_000;
const JOB = 'job_8f2c1e';

describe('download signing', () => {
  it('accepts a fresh token for its job', () => {
    const token = signDownload(JOB, NOW + 3600, SECRET);
    assert.match(token, /^[A-Za-z0-9_-]{54}$/);
    assert.equal(verifyDownload(JOB, token, SECRET, NOW), 'ok');
    assert.equal(verifyDownload(JOB, token, SECRET, NOW + 3599), 'ok');
  });

  it('reports a genuine token at or past its expiry as expired', () => {
    const token = signDownload(JOB, NOW + 3600, SECRET);
    assert.equal(verifyDownload(JOB, token, SECRET, NOW + 3600), 'expired');
    assert.equal(verifyDownload(JOB, token, SECRET, NOW + 99_999), 'expired');
  });

  it('rejects a token for another job or signed with another secret', () => {
    const token = signDownload(JOB, NOW + 3600, SECRET);
    assert.equal(verifyDownload('job_other', token, SECRET, NOW), 'invalid');
    assert.equal(verifyDownload(JOB, token, `${SECRET}x`, NOW), 'invalid');
  });

  it('rejects every single-character tampering, including a pushed-back expiry', () => {
    const token = signDownload(JOB, NOW + 3600, SECRET);
    for (let i = 0; i < token.length; i++) {
      const swapped = token[i] === 'A' ? 'B' : 'A';
      const tampered = token.slice(0, i) + swapped + token.slice(i + 1);
      assert.equal(verifyDownload(JOB, tampered, SECRET, NOW), 'invalid', `position ${i}`);
    }
    // A later expiry with the old MAC: the MAC covers the expiry, so it fails.
    const raw = Buffer.from(token, 'base64url');
    raw.writeBigUInt64BE(BigInt(NOW + 999_999), 0);
    assert.equal(verifyDownload(JOB, raw.toString('base64url'), SECRET, NOW), 'invalid');
  });

  it('rejects garbage of any length without throwing', () => {
    const token = signDownload(JOB, NOW + 3600, SECRET);
    for (const garbage of [
      '',
      'x',
      '!!!',
      token.slice(0, -1),
      `${token}A`,
      `${token.slice(0, -1)}=`,
      '\u00e9'.repeat(54),
    ]) {
      assert.equal(verifyDownload(JOB, garbage, SECRET, NOW), 'invalid', JSON.stringify(garbage));
    }
  });

  it('throws 403 forbidden unless the token is valid', () => {
    const token = signDownload(JOB, NOW + 10, SECRET);
    assert.doesNotThrow(() => assertDownloadToken(JOB, token, SECRET, NOW));
    for (const [sig, now] of [
      [token, NOW + 10],
      ['nope', NOW],
      [undefined, NOW],
    ] as const) {
      assert.throws(
        () => assertDownloadToken(JOB, sig, SECRET, now),
        (err: unknown) =>
          err instanceof VerityError && err.code === 'forbidden' && err.status === 403,
      );
    }
  });

  it('refuses to sign a nonsense expiry', () => {
    assert.throws(() => signDownload(JOB, -1, SECRET), RangeError);
    assert.throws(() => signDownload(JOB, 1.5, SECRET), RangeError);
  });
});
