import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { createEmailEngine } from '../email/email.engine';
import { createEmailLists } from '../email/email.lists';
import { SCORE_BANDS } from '../email/email.scorer';
import { createIpEngine } from '../ip/ip.engine';
import { NO_LIST_MATCH } from '../ip/ip.types';
import { createPhoneEngine } from '../phone/phone.engine';
import { scoreFraud } from '../verify/fraud.scorer';
import { MAGIC_EMAILS, MAGIC_IPS, MAGIC_PHONES } from './magic-inputs';
import { createTestEngines } from './test-engines';

const lists = createEmailLists({
  disposable: ['mailinator.com'],
  free: ['gmail.com'],
  roles: ['admin', 'info'],
});

/** Live engines whose network ports fail the test when they are used. */
function engines() {
  const asked: string[] = [];
  const email = createEmailEngine({
    lists,
    mx: { lookupMx: (domain) => (asked.push(`dns ${domain}`), Promise.reject(new Error('DNS'))) },
  });
  const phone = createPhoneEngine({
    carriers: { lookup: () => null },
    hlr: { lookup: (e164) => (asked.push(`hlr ${e164}`), Promise.reject(new Error('HLR'))) },
  });
  const ip = createIpEngine({
    geo: { geo: () => null },
    asn: { asn: () => null },
    lists: { match: () => NO_LIST_MATCH },
  });
  return { asked, test: createTestEngines({ email, phone, ip }) };
}

function findUp(relative: string): string {
  for (let dir = __dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, relative))) return join(dir, relative);
  }
  throw new Error(`${relative} not found above ${__dirname}`);
}

/** The doc's table rows whose first cell is `key` in backticks, as cells. */
function docRows(doc: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  for (const line of doc.split('\n')) {
    const match = /^\| `([^`]+)`/.exec(line);
    if (!match) continue;
    rows.set(
      match[1],
      line
        .split('|')
        .slice(2, -1)
        .map((c) => c.trim()),
    );
  }
  return rows;
}

const text = (value: string | number | boolean | null): string =>
  value === null ? 'null' : String(value);

describe('test engines', () => {
  it('answer every magic input from the table, without touching DNS or HLR', async () => {
    const { asked, test } = engines();
    for (const [address, answer] of Object.entries(MAGIC_EMAILS)) {
      assert.deepEqual(await test.email.validate(address), { input: address, ...answer });
      const upper = address.replace(/^[a-z]+/, (local) => local.toUpperCase());
      assert.equal((await test.email.check(upper)).dns, 'answered', upper);
    }
    for (const [number, magic] of Object.entries(MAGIC_PHONES)) {
      assert.deepEqual(await test.phone.validate({ phone: number }), {
        input: number,
        ...magic.fields,
        hlr: null,
      });
      const spaced = `${number.slice(0, 2)} (${number.slice(2, 5)}) ${number.slice(5, 8)}-${number.slice(8)}`;
      assert.deepEqual(await test.phone.validate({ phone: spaced, hlr: true }), {
        input: spaced,
        ...magic.fields,
        hlr: magic.hlr,
        score: magic.hlr_score,
      });
    }
    for (const [address, answer] of Object.entries(MAGIC_IPS)) {
      assert.deepEqual(test.ip.lookup(address), { input: address, ...answer });
      assert.deepEqual(test.ip.explain(address), { input: address, ...answer, lists: [] });
    }
    assert.deepEqual(test.ip.lookup('2001:DB8:0::1').asn_org, 'Example Broadband');
    assert.deepEqual(asked, []);
  });

  it('answer other inputs offline: unknown mail hosts, no HLR evidence, local IP data', async () => {
    const { asked, test } = engines();
    const plain = await test.email.check('jane@company.io');
    assert.equal(plain.dns, 'test_key');
    assert.equal(plain.fields.mx_found, false);
    assert.equal(plain.fields.deliverability, 'unknown');
    const typo = await test.email.validate('jane@gmial.com');
    assert.equal(typo.did_you_mean, 'jane@gmail.com');
    assert.equal(typo.deliverability, 'risky');
    assert.equal((await test.email.validate('info@mailinator.com')).disposable, true);
    assert.equal((await test.email.check('not an address')).fields.deliverability, 'undeliverable');
    assert.equal((await test.email.check('x@hidden.onion')).dns, 'special_use');

    const phone = await test.phone.validate({ phone: '+447911123456', hlr: true });
    assert.equal(phone.valid, true);
    assert.deepEqual(phone.hlr, { status: 'unavailable', ported: null, roaming: null });
    assert.equal(phone.score, (await test.phone.validate({ phone: '+447911123456' })).score);
    await assert.rejects(
      test.phone.validate({ phone: '+15005550006', country_hint: 'ZZZ' }),
      /country_hint/,
    );

    assert.equal(test.ip.lookup('8.8.8.8').country, null);
    assert.throws(() => test.ip.lookup('not an ip'), /IPv4 or IPv6/);
    assert.deepEqual(asked, []);
  });

  it('give verify a stable risk for the documented trios', async () => {
    const { test } = engines();
    const risk = async (email: string, phone: string, ip: string) => {
      const check = await test.email.check(email);
      return scoreFraud({
        email: check.fields,
        emailDns: check.dns,
        phone: await test.phone.validate({ phone }),
        ip: test.ip.lookup(ip),
      }).risk;
    };
    assert.equal(await risk('deliverable@example.com', '+15005550006', '192.0.2.1'), 'low');
    assert.equal(await risk('disposable@example.com', '+15005550008', '203.0.113.1'), 'high');
  });

  it('keep each magic email score inside its verdict’s band', () => {
    for (const [address, answer] of Object.entries(MAGIC_EMAILS)) {
      const [min, max] = SCORE_BANDS[answer.deliverability];
      assert.ok(answer.score >= min && answer.score <= max, address);
    }
  });
});

describe('docs/test-mode.md', () => {
  const rows = docRows(readFileSync(findUp('docs/test-mode.md'), 'utf8'));
  const documented = (keys: string[]) => [...rows.keys()].filter((k) => keys.includes(k));

  it('lists every magic email with every field', () => {
    const keys = Object.keys(MAGIC_EMAILS);
    assert.deepEqual(documented(keys), keys);
    for (const [address, a] of Object.entries(MAGIC_EMAILS)) {
      const fields = [
        a.valid_syntax,
        a.mx_found,
        a.disposable,
        a.role_based,
        a.free_provider,
        a.did_you_mean,
        a.deliverability,
        a.score,
      ];
      assert.deepEqual(rows.get(address), fields.map(text), address);
    }
  });

  it('lists every magic number with every field, with and without hlr', () => {
    const keys = Object.keys(MAGIC_PHONES);
    assert.deepEqual(documented(keys), keys);
    for (const [number, { fields: f, hlr, hlr_score }] of Object.entries(MAGIC_PHONES)) {
      const cells = [f.valid, f.e164, f.country, f.line_type, f.carrier, f.score];
      cells.push(hlr.status, hlr.ported, hlr.roaming, hlr_score);
      assert.deepEqual(rows.get(number), cells.map(text), number);
    }
  });

  it('lists every magic IP address with every field', () => {
    const keys = Object.keys(MAGIC_IPS);
    assert.deepEqual(documented(keys), keys);
    for (const [address, a] of Object.entries(MAGIC_IPS)) {
      const cells = [a.country, a.city, a.asn, a.asn_org, a.vpn, a.proxy, a.tor, a.datacenter];
      cells.push(a.abuse_score);
      assert.deepEqual(rows.get(address), cells.map(text), address);
    }
  });
});
