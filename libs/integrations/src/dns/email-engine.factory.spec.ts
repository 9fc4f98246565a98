import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { loadConfig } from '@verity/config';
import { buildEmailEngine } from './email-engine.factory';
import { LoopbackDnsServer } from '@verity/testing';

describe('buildEmailEngine', () => {
  const dns = new LoopbackDnsServer({
    zone: {
      'gmail.com': { MX: [{ exchange: 'gmail-smtp-in.l.google.com', preference: 5 }] },
      'nullmx.test': { MX: [{ exchange: '.', preference: 0 }] },
      'burner.test': { MX: [{ exchange: 'mx.burner.test', preference: 5 }] },
    },
  });
  let servers = '';

  before(async () => {
    const a = await dns.start();
    servers = `${a.host}:${a.port}`;
  });
  after(() => dns.stop());

  it('wires DNS, lists and operator overrides from config', async () => {
    const queries: string[] = [];
    const built = buildEmailEngine(
      loadConfig({ DNS_SERVERS: servers, EMAIL_DISPOSABLE_DENY: 'burner.test' }),
      { onQuery: (o) => queries.push(o) },
    );
    const { engine } = built;
    const good = await engine.validate('jane@gmail.com');
    assert.equal(good.mx_found, true);
    assert.equal(good.deliverability, 'deliverable');
    const nullMx = await engine.validate('jane@nullmx.test');
    assert.equal(nullMx.mx_found, false);
    assert.equal(nullMx.deliverability, 'undeliverable');
    const burner = await engine.validate('jane@burner.test');
    assert.equal(burner.disposable, true);
    assert.equal(burner.deliverability, 'risky');
    assert.deepEqual(queries, ['answer', 'answer', 'answer']);
    await built.close();
  });
});
