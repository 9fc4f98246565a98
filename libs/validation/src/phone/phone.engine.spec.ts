import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamUnavailableError, VerityError } from '@verity/common';
import { createPhoneEngine } from './phone.engine';
import type { CarrierLookup, HlrLookupResult, HlrProvider } from './phone.ports';

// A two-entry carrier table: enough to exercise the lookup path without the real data set
// (the real table is covered in @verity/integrations).
const carriers: CarrierLookup = {
  lookup: (cc, national) => (cc === '44' && national.startsWith('7400') ? 'Three' : null),
};

function hlrAnswering(answer: HlrLookupResult): HlrProvider & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    lookup(e164) {
      calls.push(e164);
      return Promise.resolve(answer);
    },
  };
}

describe('phone engine (offline)', () => {
  const engine = createPhoneEngine({ carriers });

  it('normalises an E.164 mobile number and names the range holder', async () => {
    const r = await engine.validate({ phone: '+44 7400 123456' });
    assert.deepEqual(r, {
      input: '+44 7400 123456',
      valid: true,
      e164: '+447400123456',
      country: 'GB',
      line_type: 'mobile',
      carrier: 'Three',
      hlr: null,
      score: 80,
    });
  });

  it('parses a national format with country_hint, case-insensitively', async () => {
    const r = await engine.validate({ phone: '07400 123456', country_hint: 'gb' });
    assert.equal(r.e164, '+447400123456');
    assert.equal(r.country, 'GB');
  });

  it('reads full-width digits and plus sign (NFKC) as their ASCII forms', async () => {
    const r = await engine.validate({ phone: '＋４４７４００１２３４５６' });
    assert.equal(r.input, '＋４４７４００１２３４５６');
    assert.equal(r.e164, '+447400123456');
    assert.equal(r.line_type, 'mobile');
    const national = await engine.validate({
      phone: '０７４００\u3000１２３４５６',
      country_hint: 'GB',
    });
    assert.equal(national.e164, '+447400123456');
  });

  it('converts vanity letters on the keypad when the rest is a plausible number', async () => {
    const r = await engine.validate({ phone: '1-800-FLOWERS', country_hint: 'US' });
    assert.equal(r.valid, true);
    assert.equal(r.e164, '+18003569377');
    assert.equal(r.input, '1-800-FLOWERS');
    assert.equal((await engine.validate({ phone: '+1 (800) got-junk' })).e164, '+18004685865');
    // Fewer than three letters is not a vanity number; an extension keeps its meaning.
    assert.equal(
      (await engine.validate({ phone: '1-800-35693AB', country_hint: 'US' })).valid,
      false,
    );
    const ext = await engine.validate({ phone: '+44 20 7946 0958 ext. 123' });
    assert.equal(ext.e164, '+442079460958');
    assert.equal((await engine.validate({ phone: 'CALL-ME-NOW' })).valid, false);
  });

  it('answers an unparseable input with valid false and a zero score, not an error', async () => {
    for (const phone of ['hello', '', '07400 123456']) {
      const r = await engine.validate({ phone });
      assert.deepEqual(
        { ...r, input: undefined },
        {
          input: undefined,
          valid: false,
          e164: null,
          country: null,
          line_type: 'unknown',
          carrier: null,
          hlr: null,
          score: 0,
        },
        phone,
      );
    }
  });

  it('scores a parseable but invalid number low, with no normalised form', async () => {
    const r = await engine.validate({ phone: '+44 1234' });
    assert.equal(r.valid, false);
    assert.equal(r.e164, null);
    assert.equal(r.line_type, 'unknown');
    assert.ok(r.score > 0 && r.score <= 10);
  });

  it('rejects a country_hint that is not ISO 3166-1 alpha-2', async () => {
    for (const country_hint of ['USA', 'U', 'ZZ', '12', 'EU']) {
      await assert.rejects(
        engine.validate({ phone: '2015550123', country_hint }),
        (err: unknown) => {
          assert.ok(err instanceof VerityError);
          assert.equal(err.code, 'validation_error');
          assert.equal(err.message, 'country_hint must be an ISO 3166-1 alpha-2 code');
          return true;
        },
      );
    }
  });

  it('ignores a real ISO code that has no numbering plan (AQ)', async () => {
    const r = await engine.validate({ phone: '+12015550123', country_hint: 'AQ' });
    assert.equal(r.valid, true);
  });

  it('reports NANP numbers as unknown line type when no range holder is known', async () => {
    const r = await engine.validate({ phone: '(201) 555-0123', country_hint: 'US' });
    assert.equal(r.valid, true);
    assert.equal(r.e164, '+12015550123');
    assert.equal(r.country, 'US');
    assert.equal(r.line_type, 'unknown');
    assert.equal(r.carrier, null);
  });

  it('maps premium-rate and VoIP ranges', async () => {
    assert.equal((await engine.validate({ phone: '+44 909 876 5432' })).line_type, 'premium');
    assert.equal((await engine.validate({ phone: '+44 56 1234 5678' })).line_type, 'voip');
    assert.equal((await engine.validate({ phone: '+44 20 7946 0000' })).line_type, 'landline');
  });
});

describe('phone engine (live HLR)', () => {
  it('is null when hlr is not requested, and the provider is not called', async () => {
    const hlr = hlrAnswering({ status: 'active', ported: false, roaming: false });
    const r = await createPhoneEngine({ carriers, hlr }).validate({
      phone: '+447400123456',
      hlr: false,
    });
    assert.equal(r.hlr, null);
    assert.deepEqual(hlr.calls, []);
  });

  it('scores an active number higher than offline', async () => {
    const hlr = hlrAnswering({
      status: 'active',
      ported: false,
      roaming: false,
      currentNetwork: 'Three',
    });
    const engine = createPhoneEngine({ carriers, hlr });
    for (const phone of ['+447400123456', '+12015550123', '+442079460000']) {
      const offline = await engine.validate({ phone });
      const live = await engine.validate({ phone, hlr: true });
      assert.deepEqual(live.hlr, { status: 'active', ported: false, roaming: false });
      assert.ok(live.score > offline.score, `${phone}: ${live.score} > ${offline.score}`);
    }
    assert.deepEqual(hlr.calls, ['+447400123456', '+12015550123', '+442079460000']);
  });

  it('settles a NANP number as mobile when the HLR knows it', async () => {
    const hlr = hlrAnswering({ status: 'active', ported: false, roaming: false });
    const r = await createPhoneEngine({ carriers, hlr }).validate({
      phone: '+12015550123',
      hlr: true,
    });
    assert.equal(r.line_type, 'mobile');
  });

  it('replaces the range holder with the current network when ported', async () => {
    const hlr = hlrAnswering({
      status: 'active',
      ported: true,
      roaming: true,
      currentNetwork: 'Vodafone',
    });
    const r = await createPhoneEngine({ carriers, hlr }).validate({
      phone: '+447400123456',
      hlr: true,
    });
    assert.equal(r.carrier, 'Vodafone');
    assert.deepEqual(r.hlr, { status: 'active', ported: true, roaming: true });
  });

  it('keeps the range holder when not ported', async () => {
    const hlr = hlrAnswering({
      status: 'active',
      ported: false,
      roaming: false,
      currentNetwork: 'Other',
    });
    const r = await createPhoneEngine({ carriers, hlr }).validate({
      phone: '+447400123456',
      hlr: true,
    });
    assert.equal(r.carrier, 'Three');
  });

  it('caps the score of a number the network says is not assigned', async () => {
    const hlr = hlrAnswering({ status: 'inactive', ported: null, roaming: null });
    const r = await createPhoneEngine({ carriers, hlr }).validate({
      phone: '+447400123456',
      hlr: true,
    });
    assert.ok(r.score <= 15);
  });

  it('does not spend a lookup on an invalid number', async () => {
    const hlr = hlrAnswering({ status: 'active', ported: false, roaming: false });
    const r = await createPhoneEngine({ carriers, hlr }).validate({ phone: 'nonsense', hlr: true });
    assert.deepEqual(r.hlr, { status: 'unavailable', ported: null, roaming: null });
    assert.deepEqual(hlr.calls, []);
  });

  it('is a 503 when no provider is configured', async () => {
    await assert.rejects(
      createPhoneEngine({ carriers }).validate({ phone: '+447400123456', hlr: true }),
      (err: unknown) => err instanceof UpstreamUnavailableError && err.status === 503,
    );
  });

  it('propagates provider failures as 503', async () => {
    const hlr: HlrProvider = {
      lookup: () => Promise.reject(new UpstreamUnavailableError('down', 'hlr')),
    };
    await assert.rejects(
      createPhoneEngine({ carriers, hlr }).validate({ phone: '+447400123456', hlr: true }),
      UpstreamUnavailableError,
    );
  });
});
