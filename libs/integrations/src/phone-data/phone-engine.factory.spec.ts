import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError } from '@verity/config';
import { UpstreamUnavailableError } from '@verity/common';
import { FakeHlrLookupsServer } from '@verity/testing';
import { buildPhoneEngine, type HlrCallOutcome } from './phone-engine.factory';
import { CarrierTable } from './carrier-table';

const carriers = CarrierTable.load();
const base = {
  HLR_BASE_URL: 'https://www.hlr-lookups.com/api/v2',
  HLR_API_KEY: undefined,
  HLR_API_SECRET: undefined,
  HLR_TIMEOUT_MS: 2_000,
};

describe('buildPhoneEngine', () => {
  const fake = new FakeHlrLookupsServer('k', 'secret-s');
  let url = '';
  before(async () => {
    url = await fake.start();
  });
  after(() => fake.stop());

  it('HLR_PROVIDER=none: offline works, hlr:true is a 503 and is reported', async () => {
    const outcomes: HlrCallOutcome[] = [];
    const { engine, close } = buildPhoneEngine(
      { ...base, HLR_PROVIDER: 'none' },
      { onHlrCall: (o) => outcomes.push(o) },
      carriers,
    );
    const offline = await engine.validate({ phone: '+447400123456' });
    assert.equal(offline.carrier, 'Three');
    await assert.rejects(
      engine.validate({ phone: '+447400123456', hlr: true }),
      UpstreamUnavailableError,
    );
    assert.deepEqual(outcomes, ['not_configured']);
    close();
  });

  it('refuses hlr-lookups without credentials, naming the variables', () => {
    assert.throws(
      () => buildPhoneEngine({ ...base, HLR_PROVIDER: 'hlr-lookups' }, undefined, carriers),
      (err: unknown) => err instanceof ConfigError && /HLR_API_KEY/.test(err.message),
    );
  });

  it('HLR_PROVIDER=hlr-lookups: live answers lift the score; close() stops lookups', async () => {
    const outcomes: HlrCallOutcome[] = [];
    const { engine, close } = buildPhoneEngine(
      {
        ...base,
        HLR_PROVIDER: 'hlr-lookups',
        HLR_BASE_URL: url,
        HLR_API_KEY: 'k',
        HLR_API_SECRET: 'secret-s',
      },
      { onHlrCall: (o) => outcomes.push(o) },
      carriers,
    );
    const offline = await engine.validate({ phone: '+447400123456' });
    const live = await engine.validate({ phone: '+447400123456', hlr: true });
    assert.deepEqual(live.hlr, { status: 'active', ported: false, roaming: false });
    assert.ok(live.score > offline.score);
    close();
    await assert.rejects(
      engine.validate({ phone: '+447400123456', hlr: true }),
      UpstreamUnavailableError,
    );
    assert.deepEqual(outcomes, ['active', 'closed']);
  });
});
