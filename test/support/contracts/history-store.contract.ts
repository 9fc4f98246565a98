import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type {
  HistoryStore,
  HistoryStorePolicy,
  ObservedValue,
} from '../../../libs/history/src/store/history-store.port';
import { waitFor } from './contract-helpers';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** The policy every adapter is built with for the contract. */
export const HISTORY_CONTRACT_POLICY: HistoryStorePolicy = {
  valueTtlMs: 90 * DAY,
  linkTtlMs: 30 * DAY,
  recentTtlMs: 300,
  memberCap: 50,
  halfLifeMs: 30 * DAY,
};

const linked = (key: string, member: string | null): ObservedValue => ({
  key,
  linked: true,
  member,
});
const plain = (key: string): ObservedValue => ({ key, linked: false, member: null });
const call = () => ({ requestId: randomUUID(), values: {} });

/**
 * The HistoryStore contract (docs/history.md): per scope, each value's first sighting, calls,
 * distinct members per window and report weights; recent calls by request_id. Every adapter
 * must pass it.
 */
export function historyStoreContract(
  name: string,
  create: (policy: HistoryStorePolicy) => HistoryStore,
  opts: { skip?: string | false } = {},
): void {
  describe(`HistoryStore contract: ${name}`, { skip: opts.skip }, () => {
    let store: HistoryStore;
    before(() => {
      store = create(HISTORY_CONTRACT_POLICY);
    });
    after(() => store.close());

    it('answers a readiness ping', async () => {
      await store.ping();
    });

    it('answers a first sighting: this call, no reports, links only where kept', async () => {
      const scope = randomUUID();
      const at = Date.now();
      const [ip, email] = await store.observe(
        scope,
        at,
        [linked('ip', 'e1'), plain('email')],
        call(),
      );
      assert.deepEqual(ip, {
        first: at,
        calls: 1,
        fraud: 0,
        legitimate: 0,
        reportedAt: at,
        linked: { h1: 1, h24: 1, d30: 1 },
      });
      assert.equal(email.linked, null);
      assert.equal(email.calls, 1);
    });

    it('counts distinct members per value, a repeat once, and keeps the first sighting', async () => {
      const scope = randomUUID();
      const t = Date.now();
      await store.observe(scope, t, [linked('ip', 'e1'), linked('phone', 'e1')], call());
      await store.observe(scope, t + 1000, [linked('ip', 'e2')], call());
      const [ip, phone] = await store.observe(
        scope,
        t + 2000,
        [linked('ip', 'e1'), linked('phone', 'e3')],
        call(),
      );
      assert.deepEqual(ip.linked, { h1: 2, h24: 2, d30: 2 });
      assert.equal(ip.calls, 3);
      assert.equal(ip.first, t);
      assert.deepEqual(phone.linked, { h1: 2, h24: 2, d30: 2 });
    });

    it('counts each window and forgets members past the longest one', async () => {
      const scope = randomUUID();
      const now = Date.now();
      for (const [member, ago] of [
        ['old', 40 * DAY],
        ['weeks', 20 * DAY],
        ['days', 3 * DAY],
        ['hours', 2 * HOUR],
      ] as const) {
        await store.observe(scope, now - ago, [linked('ip', member)], call());
      }
      const [ip] = await store.observe(scope, now, [linked('ip', 'now')], call());
      assert.deepEqual(ip.linked, { h1: 1, h24: 2, d30: 4 });
      assert.equal(ip.first, now - 40 * DAY);
      // A sighting moves a member back into the short windows.
      const [again] = await store.observe(scope, now + 1, [linked('ip', 'weeks')], call());
      assert.deepEqual(again.linked, { h1: 2, h24: 3, d30: 4 });
    });

    it('reads the links of a call without a member and adds none', async () => {
      const scope = randomUUID();
      const t = Date.now();
      await store.observe(scope, t, [linked('ip', 'e1')], call());
      const [ip] = await store.observe(scope, t + 1, [linked('ip', null)], call());
      assert.deepEqual(ip.linked, { h1: 1, h24: 1, d30: 1 });
      assert.equal(ip.calls, 2);
    });

    it('keeps at most memberCap members, the most recently seen', async () => {
      const scope = randomUUID();
      const t = Date.now();
      for (let i = 0; i < 60; i++)
        await store.observe(scope, t + i, [linked('ip', `e${i}`)], call());
      const [ip] = await store.observe(scope, t + 60, [linked('ip', 'e59')], call());
      assert.equal(ip.linked?.d30, HISTORY_CONTRACT_POLICY.memberCap);
    });

    it('never mixes scopes', async () => {
      const [a, b] = [randomUUID(), randomUUID()];
      const t = Date.now();
      await store.observe(a, t, [linked('ip', 'e1')], call());
      await store.report(a, ['ip'], { fraud: 1, legitimate: 0 }, t);
      const [ip] = await store.observe(b, t + 1, [linked('ip', 'e2')], call());
      assert.deepEqual(ip.linked, { h1: 1, h24: 1, d30: 1 });
      assert.equal(ip.calls, 1);
      assert.equal(ip.fraud, 0);
    });

    it('adds report weights decayed to the report, never below zero', async () => {
      const scope = randomUUID();
      const t = Date.now();
      await store.report(scope, ['phone', 'ip'], { fraud: 1, legitimate: 0 }, t);
      const half = t + HISTORY_CONTRACT_POLICY.halfLifeMs;
      await store.report(scope, ['phone'], { fraud: 1, legitimate: 2 }, half);
      const [phone, ip] = await store.observe(scope, half, [plain('phone'), plain('ip')], call());
      assert.equal(phone.reportedAt, half);
      assert.ok(Math.abs(phone.fraud - 1.5) < 1e-9, String(phone.fraud));
      assert.equal(phone.legitimate, 2);
      assert.equal(phone.first, half, 'a reported value is first seen in a call');
      assert.equal(ip.reportedAt, t);
      assert.equal(ip.fraud, 1);
      await store.report(scope, ['ip'], { fraud: -3, legitimate: 0 }, t + 1);
      const [taken] = await store.observe(scope, t + 2, [plain('ip')], call());
      assert.equal(taken.fraud, 0);
    });

    it('restores report weights only on values without any', async () => {
      const scope = randomUUID();
      const t = Date.now();
      await store.report(scope, ['kept'], { fraud: 0, legitimate: 1 }, t);
      await store.restore(
        scope,
        [
          { key: 'kept', fraud: 5, legitimate: 0 },
          { key: 'lost', fraud: 0.25, legitimate: 3 },
        ],
        t + 10,
      );
      const [kept, lost] = await store.observe(
        scope,
        t + 10,
        [plain('kept'), plain('lost')],
        call(),
      );
      assert.deepEqual([kept.fraud, kept.legitimate, kept.reportedAt], [0, 1, t]);
      assert.deepEqual([lost.fraud, lost.legitimate, lost.reportedAt], [0.25, 3, t + 10]);
    });

    it('holds a recent call by request_id in its scope until recentTtlMs has passed', async () => {
      const scope = randomUUID();
      const requestId = randomUUID();
      const values = { email: 'e-hmac', ip: 'ip-hmac', subnet: 'net-hmac' };
      await store.observe(scope, Date.now(), [plain('email')], { requestId, values });
      assert.deepEqual(await store.recentCall(scope, requestId), values);
      assert.equal(await store.recentCall(randomUUID(), requestId), null);
      assert.equal(await store.recentCall(scope, randomUUID()), null);
      await waitFor(
        'the recent call to expire',
        async () => (await store.recentCall(scope, requestId)) === null,
        10_000,
      );
    });

    it('counts concurrent calls on one value exactly', async () => {
      const scope = randomUUID();
      const t = Date.now();
      await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          store.observe(scope, t, [linked('ip', `e${i}`)], call()),
        ),
      );
      const [ip] = await store.observe(scope, t, [linked('ip', null)], call());
      assert.equal(ip.calls, 21);
      assert.equal(ip.linked?.h1, 20);
    });
  });
}
