import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { UpstreamUnavailableError } from '@verity/common';
import { HlrLookupsProvider, hlrLookupsSignature } from './hlr-lookups.provider';
import { HlrUnavailableError, type HlrFailureReason } from './hlr.errors';
import { FakeHlrLookupsServer, connected } from '@verity/testing';

const KEY = 'test-key';
const SECRET = 'test-secret-value';

async function rejectsWith(p: Promise<unknown>, reason: HlrFailureReason): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(
      err instanceof HlrUnavailableError,
      `expected HlrUnavailableError, got ${String(err)}`,
    );
    assert.ok(err instanceof UpstreamUnavailableError);
    assert.equal(err.code, 'service_unavailable');
    assert.equal(err.status, 503);
    assert.equal(err.reason, reason);
    assert.ok(!err.message.includes(SECRET));
    return true;
  });
}

describe('HlrLookupsProvider against a local hlr-lookups.com fake', () => {
  const fake = new FakeHlrLookupsServer(KEY, SECRET);
  let baseUrl = '';
  const provider = (over: Partial<{ secret: string; timeoutMs: number; baseUrl: string }> = {}) =>
    new HlrLookupsProvider({
      baseUrl: over.baseUrl ?? baseUrl,
      apiKey: KEY,
      apiSecret: over.secret ?? SECRET,
      timeoutMs: over.timeoutMs ?? 2_000,
    });

  before(async () => {
    baseUrl = await fake.start();
  });
  after(() => fake.stop());
  beforeEach(() => {
    fake.behaviours.clear();
    fake.requests.length = 0;
  });

  it('signs the request as documented and maps CONNECTED to active', async () => {
    const result = await provider().lookup('+447400123456');
    assert.deepEqual(result, {
      status: 'active',
      ported: false,
      roaming: false,
      currentNetwork: 'Three',
    });
    const req = fake.requests[0];
    assert.ok(req);
    assert.equal(req.path, '/api/v2/hlr-lookup');
    assert.equal(req.body, '{"msisdn":"+447400123456"}');
    assert.equal(req.headers['x-digest-key'], KEY);
    assert.match(String(req.headers['x-digest-timestamp']), /^\d{10}$/);
    assert.ok(!JSON.stringify(req.headers).includes(SECRET));
  });

  it('computes the signature over path + timestamp + method + body', () => {
    const sig = hlrLookupsSignature('/hlr-lookup', '1790000000', 'post', '{"msisdn":"+1"}', 's');
    assert.equal(
      sig,
      hlrLookupsSignature('/hlr-lookup', '1790000000', 'POST', '{"msisdn":"+1"}', 's'),
    );
    assert.notEqual(
      sig,
      hlrLookupsSignature('/hlr-lookup', '1790000001', 'POST', '{"msisdn":"+1"}', 's'),
    );
    assert.match(sig, /^[0-9a-f]{64}$/);
  });

  it('reports the porting target as the current network', async () => {
    fake.behaviours.set('+447400123456', {
      kind: 'answer',
      body: connected('+447400123456', {
        is_ported: true,
        ported_network_name: 'Vodafone',
        is_roaming: true,
      }),
    });
    const result = await provider().lookup('+447400123456');
    assert.deepEqual(result, {
      status: 'active',
      ported: true,
      roaming: true,
      currentNetwork: 'Vodafone',
    });
  });

  it('maps an unknown subscriber (INVALID_MSISDN) to inactive with no porting/roaming claims', async () => {
    fake.behaviours.set('+447400000000', {
      kind: 'answer',
      body: connected('+447400000000', { connectivity_status: 'INVALID_MSISDN', is_ported: false }),
    });
    assert.deepEqual(await provider().lookup('+447400000000'), {
      status: 'inactive',
      ported: null,
      roaming: null,
      currentNetwork: 'Three',
    });
  });

  it('maps ABSENT and UNDETERMINED to unavailable', async () => {
    for (const status of ['ABSENT', 'UNDETERMINED']) {
      fake.behaviours.set('+447400111111', {
        kind: 'answer',
        body: connected('+447400111111', { connectivity_status: status, is_roaming: null }),
      });
      const result = await provider().lookup('+447400111111');
      assert.equal(result.status, 'unavailable', status);
      assert.equal(result.roaming, null);
    }
  });

  it('treats an auth failure (401 from a wrong secret) as upstream unavailable', async () => {
    await rejectsWith(provider({ secret: 'wrong' }).lookup('+447400123456'), 'auth_failed');
  });

  it('treats 500 and 429 as upstream unavailable', async () => {
    fake.behaviours.set('+447400222222', { kind: 'status', status: 500 });
    await rejectsWith(provider().lookup('+447400222222'), 'http_error');
    fake.behaviours.set('+447400222222', { kind: 'status', status: 429, body: '{"errors":[]}' });
    await rejectsWith(provider().lookup('+447400222222'), 'http_error');
  });

  it('treats malformed JSON and unknown shapes as upstream unavailable', async () => {
    fake.behaviours.set('+447400333333', { kind: 'raw', body: '{"connectivity_status": "CONNEC' });
    await rejectsWith(provider().lookup('+447400333333'), 'bad_response');
    fake.behaviours.set('+447400333333', {
      kind: 'answer',
      body: { connectivity_status: 'MAYBE' },
    });
    await rejectsWith(provider().lookup('+447400333333'), 'bad_response');
  });

  it('treats a REJECTED lookup as upstream unavailable', async () => {
    fake.behaviours.set('+447400444444', {
      kind: 'answer',
      body: connected('+447400444444', {
        connectivity_status: 'UNDETERMINED',
        processing_status: 'REJECTED',
      }),
    });
    await rejectsWith(provider().lookup('+447400444444'), 'lookup_failed');
  });

  it('times out a provider that never answers', async () => {
    fake.behaviours.set('+447400555555', { kind: 'hang' });
    await rejectsWith(provider({ timeoutMs: 150 }).lookup('+447400555555'), 'timeout');
  });

  it('never follows a redirect to another host', async () => {
    let hits = 0;
    const other: Server = createServer((_req, res) => {
      hits++;
      res.end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const { port } = other.address() as AddressInfo;
    fake.behaviours.set('+447400666666', {
      kind: 'redirect',
      location: `http://127.0.0.1:${port}/steal`,
    });
    try {
      await rejectsWith(provider().lookup('+447400666666'), 'redirect');
      assert.equal(hits, 0);
    } finally {
      await new Promise<void>((r) => other.close(() => r()));
    }
  });

  it('reports a provider that is down (connection refused)', async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const { port } = probe.address() as AddressInfo;
    await new Promise<void>((r) => probe.close(() => r()));
    await rejectsWith(
      provider({ baseUrl: `http://127.0.0.1:${port}/api/v2` }).lookup('+447400123456'),
      'network_error',
    );
  });

  it('refuses lookups after close()', async () => {
    const p = provider();
    p.close();
    await rejectsWith(p.lookup('+447400123456'), 'closed');
  });
});
