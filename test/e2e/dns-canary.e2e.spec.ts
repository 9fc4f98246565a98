import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { LoopbackDnsServer, startTestStack, type TestStack } from '@verity/testing';

/**
 * A machine whose resolver answers "no such domain" for everything (a broken or captive
 * resolver): the service says so where an operator looks (/readyz, the metric) and its email
 * answers say `unknown` instead of calling every domain mailless.
 */
describe('a resolver that denies every domain', () => {
  const resolver = new LoopbackDnsServer({ zone: {} });
  let stack: TestStack;
  let key: string;

  before(async () => {
    const address = await resolver.start();
    stack = await startTestStack({ env: { DNS_SERVERS: `${address.host}:${address.port}` } });
    key = (await stack.account(100)).apiKey;
  });
  after(async () => {
    await stack.close();
    await resolver.stop();
  });

  it('is reported by /readyz (without failing readiness) and by the readiness metric', async () => {
    const ready = await fetch(`${stack.client.baseUrl}/readyz`);
    assert.equal(ready.status, 200);
    const body = (await ready.json()) as {
      status: string;
      checks: Record<string, { ok: boolean; required: boolean; detail: { state: string } }>;
    };
    assert.equal(body.status, 'ready');
    assert.equal(body.checks.dns.ok, false);
    assert.equal(body.checks.dns.required, false);
    assert.equal(body.checks.dns.detail.state, 'denies_domains');
    const metrics = await (await fetch(`${stack.client.baseUrl}/metrics`)).text();
    assert.match(metrics, /^verity_readiness_check\{check="dns"\} 0$/m);
  });

  it('answers unknown, not undeliverable, for a domain the resolver denies', async () => {
    const res = await stack.client
      .withKey(key)
      .post('/v1/email/validate', { email: 'jane@gmail.com' });
    assert.equal(res.status, 200);
    assert.equal(res.body.deliverability, 'unknown');
    assert.equal(res.body.mx_found, false);
  });
});

describe('a working resolver', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack();
  });
  after(() => stack.close());

  it('passes the DNS check', async () => {
    const body = (await (await fetch(`${stack.client.baseUrl}/readyz`)).json()) as {
      checks: Record<string, { ok: boolean; detail: { state: string } }>;
    };
    assert.equal(body.checks.dns.ok, true);
    assert.equal(body.checks.dns.detail.state, 'healthy');
  });
});
