import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { signWebhook, verifyWebhook } from './webhook-signature';

const SECRET = 'whsec-test-0123456789';
const BODY = '{"id":"job_1","status":"done"}';
const T = 1_750_000_000;

describe('webhook signature', () => {
  it('is t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    assert.equal(signWebhook(BODY, SECRET, T), `t=${T},v1=${expected}`);
    assert.equal(signWebhook(Buffer.from(BODY), SECRET, T), signWebhook(BODY, SECRET, T));
  });

  it('verifies within the tolerance and reports stale signatures as expired', () => {
    const header = signWebhook(BODY, SECRET, T);
    assert.equal(verifyWebhook(header, BODY, SECRET, 300, T + 300), 'ok');
    assert.equal(verifyWebhook(header, BODY, SECRET, 300, T - 300), 'ok');
    assert.equal(verifyWebhook(header, BODY, SECRET, 300, T + 301), 'expired');
  });

  it('rejects a changed body, timestamp or secret', () => {
    const header = signWebhook(BODY, SECRET, T);
    assert.equal(verifyWebhook(header, `${BODY} `, SECRET, 300, T), 'invalid');
    assert.equal(
      verifyWebhook(header.replace(`t=${T}`, `t=${T + 1}`), BODY, SECRET, 300, T),
      'invalid',
    );
    assert.equal(verifyWebhook(header, BODY, 'another-secret-value', 300, T), 'invalid');
  });

  it('accepts any matching v1 (secret rotation) and rejects garbage', () => {
    const good = signWebhook(BODY, SECRET, T).split(',')[1];
    const old = signWebhook(BODY, 'old-secret-0123456789', T).split(',')[1];
    assert.equal(verifyWebhook(`t=${T},${old},${good}`, BODY, SECRET, 300, T), 'ok');
    for (const header of [
      undefined,
      '',
      't=abc,v1=00',
      `t=${T}`,
      `v1=${'0'.repeat(64)}`,
      `t=${T},v1=zz`,
      `t=${T},v1=${'0'.repeat(64)}`,
    ]) {
      assert.equal(verifyWebhook(header, BODY, SECRET, 300, T), 'invalid', String(header));
    }
  });
});
