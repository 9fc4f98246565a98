import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseIp } from '@verity/validation';
import { ValueKeys, recordedInputs, valueTexts } from './value-keys';

const keys = new ValueKeys(Buffer.from('a history secret of at least 32 characters'));
const live = { accountId: '3f1c6b1e-8d3a-4c55-9d5e-0b1f2a3c4d5e', mode: 'live' as const };
const ip = (text: string) => parseIp(text) ?? undefined;

describe('value keys', () => {
  it('spell each value one way: case and spaces of an email, forms of an address, the E.164 number', () => {
    assert.deepEqual(valueTexts({ email: ' Jane@Example.COM ' }), { email: 'jane@example.com' });
    assert.deepEqual(
      valueTexts({ ip: ip('::ffff:86.130.1.2') }),
      valueTexts({ ip: ip('86.130.1.2') }),
    );
    assert.deepEqual(
      valueTexts({ ip: ip('2001:DB8:0::1') }),
      valueTexts({ ip: ip('2001:db8::1') }),
    );
    assert.equal(
      valueTexts({ phone: { input: '+44 7400 100005', e164: '+447400100005' } }).phone,
      '+447400100005',
    );
    assert.equal(valueTexts({ phone: { input: '(0)12-34', e164: null } }).phone, '01234');
    assert.deepEqual(valueTexts({ email: '  ' }), {});
  });

  it('put an IPv4 address in its /24 and an IPv6 one in its /64', () => {
    const subnet = (text: string) => valueTexts({ ip: ip(text) }).subnet;
    assert.equal(subnet('86.130.1.2'), subnet('86.130.1.250'));
    assert.notEqual(subnet('86.130.1.2'), subnet('86.130.2.2'));
    assert.equal(subnet('2001:db8:1:2::1'), subnet('2001:db8:1:2:ffff::9'));
    assert.notEqual(subnet('2001:db8:1:2::1'), subnet('2001:db8:1:3::1'));
  });

  it('name the same value differently in two accounts and in the two key modes', () => {
    const texts = valueTexts({ email: 'jane@example.com', ip: ip('86.130.1.2') });
    const a = keys.of(live, texts);
    assert.match(a.email!, /^[A-Za-z0-9_-]{22}$/);
    assert.deepEqual(keys.of(live, texts), a);
    const other = keys.of({ ...live, accountId: '00000000-0000-4000-8000-000000000001' }, texts);
    const test = keys.of({ ...live, mode: 'test' }, texts);
    for (const kind of ['email', 'ip', 'subnet'] as const) {
      assert.notEqual(other[kind], a[kind], kind);
      assert.notEqual(test[kind], a[kind], kind);
    }
    assert.notEqual(a.ip, a.subnet);
    const rekeyed = new ValueKeys(Buffer.from('another secret, also of 32 characters or more'));
    assert.notEqual(rekeyed.of(live, texts).email, a.email);
  });

  it("leave a test key's magic inputs out, and a live key's never", () => {
    const magic = {
      email: 'Deliverable@example.com',
      phone: { input: '+1 500 555 0006', e164: '+15005550006' },
      ip: ip('192.0.2.1'),
    };
    assert.deepEqual(recordedInputs({ ...live, mode: 'test' }, magic), {
      email: undefined,
      phone: undefined,
      ip: undefined,
    });
    assert.deepEqual(recordedInputs(live, magic), magic);
    const plain = { email: 'someone@example.com' };
    assert.deepEqual(recordedInputs({ ...live, mode: 'test' }, plain).email, plain.email);
  });
});
