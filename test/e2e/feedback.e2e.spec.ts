// POST /v1/feedback, GET /v1/feedback/stats and the history in verify answers, over HTTP on the
// embedded history store; a second API instance on the same database finds older calls in
// verify_calls, replays them into its store and restores report weights at boot
// (docs/history.md).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import type { ExplainedVerifyResult, FeedbackStats } from '@verity/contracts';
import { startTestStack, waitFor, type TestClient, type TestStack } from '@verity/testing';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const points = (answer: ExplainedVerifyResult): Record<string, number> =>
  Object.fromEntries(answer.reasons.map((r) => [r.code, r.points]));

describe('feedback and the history in verify answers', () => {
  let stack: TestStack;
  let live: TestClient;
  let test: TestClient;
  let other: TestClient;
  let accountId: string;
  let liveKey: string;

  const verify = async (client: TestClient, body: object): Promise<ExplainedVerifyResult> => {
    const res = await client.post('/v1/verify?explain=true', body);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as ExplainedVerifyResult;
  };
  const report = (client: TestClient, body: object) => client.post('/v1/feedback', body);
  const balance = async () => (await live.get('/v1/ping')).body.credits_remaining as number;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '10000', RATE_LIMIT_BURST: '10000' },
    });
    const owner = await stack.account(10_000, 'owner');
    live = owner.client;
    accountId = owner.accountId;
    liveKey = owner.apiKey;
    const key = await stack.app.get(ApiKeysService).create(accountId, 'ci', undefined, 'test');
    test = stack.client.withKey(key.key);
    other = (await stack.account(1_000, 'other')).client;
  });
  after(() => stack.close());

  it('gives every verify answer a request_id and, with explain, the history behind it', async () => {
    const plain = await live.post('/v1/verify', { email: 'first@example.com' });
    assert.equal(plain.status, 200);
    assert.match(plain.body.request_id, UUID_V4);
    assert.equal(plain.body.history, undefined);
    const body = { email: 'ann@example.com', phone: '+447400100001', ip: '86.130.1.1' };
    const answer = await verify(live, body);
    assert.match(answer.request_id, UUID_V4);
    assert.notEqual(answer.request_id, plain.body.request_id);
    assert.deepEqual(Object.keys(answer.history).sort(), ['email', 'ip', 'phone', 'subnet']);
    assert.deepEqual(answer.history.ip, {
      linked: { '1h': 1, '24h': 1, '30d': 1 },
      first_seen: answer.history.ip!.first_seen,
      calls: 1,
      reported: { fraud: 0, legitimate: 0 },
    });
    assert.equal(answer.history.email!.linked, null);
    assert.ok(Math.abs(Date.parse(answer.history.email!.first_seen) - Date.now()) < 60_000);
    const again = await verify(live, body);
    assert.equal(again.history.email!.calls, 2);
    assert.equal(again.history.email!.first_seen, answer.history.email!.first_seen);
    assert.deepEqual(again.history.ip!.linked, { '1h': 1, '24h': 1, '30d': 1 });
  });

  it('counts the emails behind an address and a phone as reasons with their figures', async () => {
    let last: ExplainedVerifyResult | undefined;
    for (let i = 0; i < 6; i++)
      last = await verify(live, {
        email: `ring${i}@example.com`,
        phone: '+447400100002',
        ip: '86.130.2.2',
      });
    assert.deepEqual(last!.history.ip!.linked, { '1h': 6, '24h': 6, '30d': 6 });
    const reasons = points(last!);
    assert.equal(reasons.ip_velocity_1h, 20);
    assert.equal(reasons.phone_shared_24h, 30);
    assert.equal(reasons.ip_clean, undefined);
    const reason = last!.reasons.find((r) => r.code === 'phone_shared_24h');
    assert.match(reason!.description, /^6 distinct emails used this phone number/);
  });

  it('records an outcome by request_id for free, and later scores of its values rise', async () => {
    const call = await verify(live, {
      email: 'mallory@example.com',
      phone: '+447400100003',
      ip: '86.130.3.3',
    });
    const before = await balance();
    const res = await report(live, { request_id: call.request_id, outcome: 'fraud' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, {
      outcome: 'fraud',
      request_id: call.request_id,
      values: ['email', 'phone', 'ip', 'subnet'],
      credits_used: 0,
    });
    assert.equal(await balance(), before, 'feedback is free');
    // A retry changes nothing: the call has one outcome.
    assert.equal(
      (await report(live, { request_id: call.request_id, outcome: 'fraud' })).status,
      200,
    );
    const next = await verify(live, {
      email: 'someone.new@example.com',
      phone: '+447400100003',
      ip: '86.130.3.4',
    });
    assert.deepEqual(
      [points(next).phone_reported_fraud, points(next).ip_subnet_reported_fraud],
      [30, 10],
    );
    assert.equal(next.history.phone!.reported.fraud, 1);
    const same = await verify(live, { email: 'Mallory@Example.com ' });
    assert.equal(points(same).email_reported_fraud, 40);
    // Reported legitimate after all: the fraud weight is taken back.
    assert.equal(
      (await report(live, { request_id: call.request_id, outcome: 'legitimate' })).status,
      200,
    );
    const cleared = await verify(live, { phone: '+447400100003' });
    assert.deepEqual(cleared.history.phone!.reported, { fraud: 0, legitimate: 1 });
    assert.equal(points(cleared).phone_reported_legitimate, -10);
  });

  it('lets a legitimate report on an address outweigh its velocity (an office)', async () => {
    const office = '86.130.4.4';
    const res = await report(live, { ip: office, outcome: 'legitimate' });
    assert.deepEqual(res.body, {
      outcome: 'legitimate',
      request_id: null,
      values: ['ip', 'subnet'],
      credits_used: 0,
    });
    let last: ExplainedVerifyResult | undefined;
    for (let i = 0; i < 8; i++)
      last = await verify(live, { email: `staff${i}@example.com`, ip: office });
    assert.equal(last!.history.ip!.linked!['1h'], 8);
    const reasons = points(last!);
    assert.deepEqual(
      Object.keys(reasons).filter((code) => reasons[code] > 0),
      [],
      'no velocity for a vouched address',
    );
    assert.deepEqual([reasons.ip_clean, reasons.ip_reported_legitimate], [-15, -10]);
  });

  it('keys a phone reported by value as verify keys it (E.164)', async () => {
    await report(live, { phone: '+44 7400 100005', outcome: 'fraud' });
    assert.equal(points(await verify(live, { phone: '+447400100005' })).phone_reported_fraud, 30);
  });

  it("answers 404 for another account's request_id, a test key's view of a live call and an unknown id", async () => {
    const call = await verify(live, { email: 'kept@example.com' });
    for (const [client, id] of [
      [other, call.request_id],
      [test, call.request_id],
      [live, '3f1c6b1e-8d3a-4c55-9d5e-0b1f2a3c4d5e'],
    ] as const) {
      const res = await report(client, { request_id: id, outcome: 'fraud' });
      assert.equal(res.status, 404, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'not_found');
      assert.match(res.body.error.message, /no verify call with request_id/);
    }
  });

  it('answers 400 with the error shape for a body it cannot use', async () => {
    const cases: [unknown, RegExp][] = [
      [{}, /outcome/],
      [{ email: 'a@example.com' }, /outcome is required/],
      [{ outcome: 'fraud' }, /give request_id, or at least one of email, phone and ip/],
      [
        { request_id: 'abc', outcome: 'fraud' },
        /request_id must be the request_id of a verify answer/,
      ],
      [
        { request_id: '3f1c6b1e-8d3a-4c55-9d5e-0b1f2a3c4d5e', ip: '1.2.3.4', outcome: 'fraud' },
        /not both/,
      ],
      [
        { email: 'a@example.com', outcome: 'chargeback' },
        /outcome must be "fraud" or "legitimate"/,
      ],
      [{ ip: 'not-an-ip', outcome: 'fraud' }, /ip must be an IPv4 or IPv6 address/],
      [{ email: 42, outcome: 'fraud' }, /email must be a string/],
      [[], /JSON object/],
    ];
    for (const [body, message] of cases) {
      const res = await report(live, body as object);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.code, 'validation_error');
      assert.match(res.body.error.message, message, JSON.stringify(body));
    }
    const broken = await live.raw('POST', '/v1/feedback', '{"outcome":', 'application/json');
    assert.equal(broken.status, 400);
    assert.equal(broken.body.error.code, 'validation_error');
  });

  it("keeps a test key's history apart from live and leaves the magic inputs out", async () => {
    const body = { email: 'shared@example.com', phone: '+447400100006', ip: '86.130.6.6' };
    for (let i = 0; i < 3; i++) await verify(test, { ...body, email: `t${i}@example.com` });
    const fromTest = await verify(test, body);
    assert.equal(fromTest.history.ip!.linked!['1h'], 4);
    const fromLive = await verify(live, body);
    assert.equal(fromLive.history.ip!.linked!['1h'], 1);
    assert.equal(fromLive.history.ip!.calls, 1);
    const magic = { email: 'deliverable@example.com', phone: '+15005550006', ip: '192.0.2.1' };
    const first = await verify(test, magic);
    const second = await verify(test, magic);
    assert.deepEqual(first.history, {});
    assert.deepEqual(
      [second.fraud_score, second.reasons],
      [first.fraud_score, first.reasons],
      'a magic trio always scores the same',
    );
    const reported = await report(test, { request_id: second.request_id, outcome: 'fraud' });
    assert.deepEqual(reported.body.values, []);
    const none = await report(test, { email: 'deliverable@example.com', outcome: 'fraud' });
    assert.equal(none.status, 400);
    assert.match(none.body.error.message, /magic inputs keep no history/);
  });

  it('counts labelled calls per key mode in GET /v1/feedback/stats', async () => {
    const fresh = (await stack.account(1_000, 'stats')).client;
    const empty = await fresh.get('/v1/feedback/stats');
    assert.equal(empty.status, 200);
    assert.deepEqual(
      { ...empty.body, reliability: undefined, risk_levels: undefined },
      {
        mode: 'live',
        retention_days: 90,
        labelled_calls: 0,
        fraud: 0,
        legitimate: 0,
        auc: null,
        enough_labels: false,
        reliability: undefined,
        risk_levels: undefined,
        reasons: [],
      },
    );
    const calls: ExplainedVerifyResult[] = [];
    for (let i = 0; i < 4; i++)
      calls.push(await verify(fresh, { email: `s${i}@example.com`, ip: '86.130.7.7' }));
    await report(fresh, { request_id: calls[0].request_id, outcome: 'legitimate' });
    await report(fresh, { request_id: calls[3].request_id, outcome: 'fraud' });
    let stats: FeedbackStats | undefined;
    // The calls reach verify_calls within the call log's second.
    await waitFor('the labelled calls in the statistics', async () => {
      stats = (await fresh.get('/v1/feedback/stats')).body as FeedbackStats;
      return stats.labelled_calls === 2;
    });
    assert.equal(stats!.fraud, 1);
    assert.equal(stats!.auc, 1, 'the fraud call (velocity) scored above the legitimate one');
    const velocity = stats!.reasons.find((r) => r.code === 'ip_velocity_1h');
    assert.deepEqual(velocity, {
      code: 'ip_velocity_1h',
      direction: 'risk',
      calls: 1,
      fraud: 1,
      precision: 1,
    });
    assert.equal(
      stats!.reliability.reduce((sum, band) => sum + band.calls, 0),
      2,
    );
    const testStats = await test.get('/v1/feedback/stats');
    assert.equal(testStats.body.mode, 'test');
  });

  it('finds a written call and restored report weights from a second instance on the same database', async () => {
    const call = await verify(live, {
      email: 'late@example.com',
      phone: '+447400100008',
      ip: '86.130.8.8',
    });
    await report(live, { request_id: call.request_id, outcome: 'fraud' });
    const written = await verify(live, { email: 'written@example.com', ip: '86.130.9.9' });
    await waitFor('the call in verify_calls', async () => {
      const rows = await stack.dataSource.query<unknown[]>(
        'SELECT 1 FROM verify_calls WHERE request_id = $1',
        [written.request_id],
      );
      return rows.length === 1;
    });
    const second = await startTestStack({ database: stack.database });
    try {
      const client = second.client.withKey(liveKey);
      const restored = await verify(client, { phone: '+447400100008' });
      assert.equal(points(restored).phone_reported_fraud, 30, 'weights restored at boot');
      // The calls of the first instance were replayed into the second's in-process store.
      const replayed = await verify(client, { email: 'ring6@example.com', ip: '86.130.2.2' });
      assert.deepEqual(replayed.history.ip!.linked, { '1h': 7, '24h': 7, '30d': 7 });
      assert.equal(replayed.history.ip!.calls, 7);
      const res = await report(client, { request_id: written.request_id, outcome: 'legitimate' });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.values, ['email', 'ip', 'subnet']);
    } finally {
      await second.close();
    }
  });
});
