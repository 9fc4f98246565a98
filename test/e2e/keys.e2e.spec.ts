import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestStack, type TestStack } from '@verity/testing';

/** Polls until `check` holds; the revocation must arrive, however long the scheduler takes. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`never happened: ${what}`);
}

describe('API keys: create, list, rotate, delete, on every instance', () => {
  let a: TestStack;
  let b: TestStack;

  before(async () => {
    a = await startTestStack();
    b = await startTestStack({ database: a.database });
  });
  after(async () => {
    await b.close();
    await a.close();
  });

  it('creates a named key whose value is shown once and never listed', async () => {
    const { client } = await a.account(10);
    const created = await client.post('/v1/keys', { name: 'staging' });
    assert.equal(created.status, 201);
    assert.match(created.body.key, /^vrt_live_[0-9A-Za-z]{24}$/);
    assert.equal(created.body.name, 'staging');
    const listed = await client.get('/v1/keys');
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body.data.map((k: { name: string }) => k.name).sort(), [
      'default',
      'staging',
    ]);
    assert.ok(!JSON.stringify(listed.body).includes(created.body.key));
    assert.ok(
      listed.body.data.every((k: any) => k.key === undefined && k.hint.startsWith('vrt_live_')),
    );
    const withNew = a.client.withKey(created.body.key);
    assert.equal((await withNew.get('/v1/ping')).body.key.name, 'staging');
  });

  it('stores only a hash of the key', async () => {
    const { apiKey } = await a.account(1);
    const rows = await a.dataSource.query('SELECT * FROM api_keys');
    assert.ok(!JSON.stringify(rows).includes(apiKey));
    assert.ok(!JSON.stringify(rows).includes(apiKey.slice(9)));
  });

  it('rotation kills the old value at once on both instances; the new one works on both', async () => {
    const { apiKey, client } = await a.account(10);
    const oldOnB = b.client.withKey(apiKey);
    assert.equal((await oldOnB.get('/v1/ping')).status, 200); // now cached on B
    const keyId = (await client.get('/v1/keys')).body.data[0].id;
    const rotated = await client.post(`/v1/keys/${keyId}/rotate`);
    assert.equal(rotated.status, 200);
    assert.notEqual(rotated.body.key, apiKey);
    assert.equal((await client.get('/v1/ping')).status, 401);
    await eventually(
      async () => (await oldOnB.get('/v1/ping')).status === 401,
      'old key refused on instance B',
    );
    assert.equal((await b.client.withKey(rotated.body.key).get('/v1/ping')).status, 200);
  });

  it('deletion revokes for good on both instances', async () => {
    const { client } = await a.account(10);
    const extra = await client.post('/v1/keys', { name: 'ci' });
    const onB = b.client.withKey(extra.body.key);
    assert.equal((await onB.get('/v1/ping')).status, 200);
    const del = await client.delete(`/v1/keys/${extra.body.id}`);
    assert.equal(del.status, 204);
    await eventually(
      async () => (await onB.get('/v1/ping')).status === 401,
      'deleted key refused on instance B',
    );
    assert.equal((await client.delete(`/v1/keys/${extra.body.id}`)).status, 404);
    assert.equal((await client.post(`/v1/keys/${extra.body.id}/rotate`)).status, 404);
  });

  it("never touches another account's keys", async () => {
    const owner = await a.account(10);
    const intruder = await a.account(10);
    const keyId = (await owner.client.get('/v1/keys')).body.data[0].id;
    assert.equal((await intruder.client.post(`/v1/keys/${keyId}/rotate`)).status, 404);
    assert.equal((await intruder.client.delete(`/v1/keys/${keyId}`)).status, 404);
    assert.equal((await owner.client.get('/v1/ping')).status, 200);
  });

  it('creates, lists, rotates and deletes test keys; a test key authenticates as itself', async () => {
    const { client } = await a.account(10);
    const created = await client.post('/v1/keys', { name: 'ci', mode: 'test' });
    assert.equal(created.status, 201);
    assert.match(created.body.key, /^vrt_test_[0-9A-Za-z]{24}$/);
    assert.equal(created.body.mode, 'test');
    const listed = (await client.get('/v1/keys')).body.data;
    assert.deepEqual(
      listed.map((k: { name: string; mode: string }) => `${k.name}:${k.mode}`).sort(),
      ['ci:test', 'default:live'],
    );
    assert.ok(listed.find((k: { name: string }) => k.name === 'ci').hint.startsWith('vrt_test_'));
    const ping = await a.client.withKey(created.body.key).get('/v1/ping');
    assert.equal(ping.status, 200);
    assert.equal(ping.body.key.id, created.body.id);

    const rotated = await client.post(`/v1/keys/${created.body.id}/rotate`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.key, /^vrt_test_[0-9A-Za-z]{24}$/);
    assert.equal(rotated.body.mode, 'test');
    assert.equal((await a.client.withKey(created.body.key).get('/v1/ping')).status, 401);
    assert.equal((await b.client.withKey(rotated.body.key).get('/v1/ping')).status, 200);

    assert.equal((await client.delete(`/v1/keys/${created.body.id}`)).status, 204);
    await eventually(
      async () => (await b.client.withKey(rotated.body.key).get('/v1/ping')).status === 401,
      'deleted test key refused on instance B',
    );
  });

  it('a test key manages only test keys: it cannot create, list, rotate or delete a live key', async () => {
    const { client } = await a.account(10);
    const liveId = (await client.get('/v1/keys')).body.data[0].id;
    const ci = await client.post('/v1/keys', { name: 'ci', mode: 'test' });
    const asTest = a.client.withKey(ci.body.key);

    for (const body of [{ name: 'minted' }, { name: 'minted', mode: 'live' }]) {
      const refused = await asTest.post('/v1/keys', body);
      assert.equal(refused.status, 403);
      assert.equal(refused.body.error.code, 'forbidden');
      assert.match(refused.body.error.message, /a test key cannot create a live key/);
    }
    const listed = await asTest.get('/v1/keys');
    assert.equal(listed.status, 200);
    assert.deepEqual(
      listed.body.data.map((k: { id: string }) => k.id),
      [ci.body.id],
    );
    const rotate = await asTest.post(`/v1/keys/${liveId}/rotate`);
    assert.equal(rotate.status, 403);
    assert.match(rotate.body.error.message, /a test key cannot rotate a live key/);
    const del = await asTest.delete(`/v1/keys/${liveId}`);
    assert.equal(del.status, 403);
    assert.match(del.body.error.message, /a test key cannot delete a live key/);
    // On the other instance too, and nothing changed: the live key still answers, alone.
    assert.equal((await b.client.withKey(ci.body.key).delete(`/v1/keys/${liveId}`)).status, 403);
    assert.equal((await client.get('/v1/ping')).status, 200);
    assert.deepEqual(
      (await client.get('/v1/keys')).body.data.map((k: { mode: string }) => k.mode).sort(),
      ['live', 'test'],
    );

    // Test keys stay manageable with a test key: CI can exercise key management for free.
    const second = await asTest.post('/v1/keys', { name: 'ci-2', mode: 'test' });
    assert.equal(second.status, 201);
    assert.match(second.body.key, /^vrt_test_/);
    const rotated = await asTest.post(`/v1/keys/${second.body.id}/rotate`);
    assert.equal(rotated.status, 200);
    assert.match(rotated.body.key, /^vrt_test_/);
    assert.equal((await asTest.delete(`/v1/keys/${second.body.id}`)).status, 204);
  });

  it('a hint is the prefix and the first 4 of the 24 secret characters', async () => {
    const { client } = await a.account(10);
    const created = await client.post('/v1/keys', { name: 'hinted' });
    const expected = `vrt_live_${created.body.key.slice(9, 13)}…`;
    assert.equal(created.body.hint, expected);
    const listed = (await client.get('/v1/keys')).body.data;
    assert.equal(listed.find((k: { id: string }) => k.id === created.body.id).hint, expected);
    const rotated = await client.post(`/v1/keys/${created.body.id}/rotate`);
    assert.equal(rotated.body.hint, `vrt_live_${rotated.body.key.slice(9, 13)}…`);
  });

  it('the random part of a key under the other prefix is no key', async () => {
    const { apiKey, client } = await a.account(10);
    const test = (await client.post('/v1/keys', { name: 'ci', mode: 'test' })).body.key;
    // Before the test key has authenticated (its row is read from the database), then after (cached).
    for (let round = 0; round < 2; round++) {
      const asLive = a.client.withKey('vrt_live_' + test.slice('vrt_test_'.length));
      assert.equal((await asLive.get('/v1/ping')).status, 401);
      const asTest = a.client.withKey('vrt_test_' + apiKey.slice('vrt_live_'.length));
      assert.equal((await asTest.get('/v1/ping')).status, 401);
      assert.equal((await a.client.withKey(test).get('/v1/ping')).status, 200);
      assert.equal((await a.client.withKey(apiKey).get('/v1/ping')).status, 200);
    }
  });

  it('a key created without a mode is live; an unknown mode is a validation error', async () => {
    const { client } = await a.account(10);
    const live = await client.post('/v1/keys', { name: 'plain' });
    assert.equal(live.body.mode, 'live');
    assert.match(live.body.key, /^vrt_live_/);
    const bad = await client.post('/v1/keys', { name: 'ci', mode: 'sandbox' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'validation_error');
    assert.match(bad.body.error.message, /mode/);
  });

  it('refuses a name an active key of the same mode has with 422; another mode, another account or a deleted key’s name is free', async () => {
    const owner = await a.account(10);
    const other = await a.account(10);
    const first = await owner.client.post('/v1/keys', { name: 'ci' });
    assert.equal(first.status, 201);
    const again = await owner.client.post('/v1/keys', { name: 'ci' });
    assert.equal(again.status, 422, JSON.stringify(again.body));
    assert.deepEqual(again.body, {
      error: {
        code: 'unprocessable',
        message:
          'a live key named "ci" already exists: choose another name, or revoke that key first',
      },
    });
    // Two requests at once: the unique index decides, one key is made.
    const raced = await Promise.all([
      owner.client.post('/v1/keys', { name: 'deploy' }),
      b.client.withKey(owner.apiKey).post('/v1/keys', { name: 'deploy' }),
    ]);
    assert.deepEqual(raced.map((r) => r.status).sort(), [201, 422]);
    assert.equal((await owner.client.post('/v1/keys', { name: 'ci', mode: 'test' })).status, 201);
    const testAgain = await owner.client.post('/v1/keys', { name: 'ci', mode: 'test' });
    assert.equal(testAgain.status, 422);
    assert.match(testAgain.body.error.message, /^a test key named "ci" already exists/);
    assert.equal((await other.client.post('/v1/keys', { name: 'ci' })).status, 201);
    // Names compare exactly: another case is another name.
    assert.equal((await owner.client.post('/v1/keys', { name: 'CI' })).status, 201);
    assert.equal((await owner.client.delete(`/v1/keys/${first.body.id}`)).status, 204);
    assert.equal((await owner.client.post('/v1/keys', { name: 'ci' })).status, 201);
    const names = (await owner.client.get('/v1/keys')).body.data.map(
      (k: { name: string; mode: string }) => `${k.name}:${k.mode}`,
    );
    assert.deepEqual(names.sort(), [
      'CI:live',
      'ci:live',
      'ci:test',
      'default:live',
      'deploy:live',
    ]);
  });

  it('validates the key name', async () => {
    const { client } = await a.account(10);
    const res = await client.post('/v1/keys', { name: '' });
    assert.equal(res.status, 400);
    assert.match(res.body.error.message, /name/);
  });
});
