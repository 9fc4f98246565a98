import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  outageHarnessMissing,
  parseScrape,
  startDedicatedPostgres,
  startTestStack,
  total,
  type StoppableService,
  type TestClient,
  type TestStack,
} from '@verity/testing';

// The API on a PostgreSQL server of the test's own, stopped and started again: the single
// calls made meanwhile are 503 service_unavailable with Retry-After, counted against
// `postgres` (never `other`), and the API serves again once the server is back.

const missing = outageHarnessMissing(['postgres']);

async function unavailable(stack: TestStack, dependency: string): Promise<number> {
  return total(
    parseScrape(await stack.metrics!.registry.metrics()),
    'verity_upstream_unavailable_total',
    {
      dependency,
    },
  );
}

describe('the API through a PostgreSQL outage', () => {
  if (missing !== null) {
    it(
      'has what the outage harness needs',
      { skip: process.env.CI !== 'true' && `${missing} missing` },
      () => assert.fail(`${missing} missing: .ci/run must install it`),
    );
    return;
  }
  let postgres: StoppableService & { url: string };
  let stack: TestStack;
  let client: TestClient;

  before(async () => {
    postgres = await startDedicatedPostgres();
    stack = await startTestStack({
      database: {
        url: postgres.url,
        description: `dedicated PostgreSQL on port ${postgres.port}`,
        drop: () => Promise.resolve(), // the whole server goes in after()
      },
    });
    ({ client } = await stack.account(100));
  });
  after(async () => {
    await stack?.close();
    await postgres?.destroy();
  });

  it('answers 503 + Retry-After counted as postgres while it is down, and 200 once it is back', async () => {
    const call = () => client.post('/v1/phone/validate', { phone: '+14155552671' });
    assert.equal((await call()).status, 200, 'served before the outage');
    const before = {
      postgres: await unavailable(stack, 'postgres'),
      other: await unavailable(stack, 'other'),
    };

    await postgres.stop();
    const answers = [await call(), await call(), await client.get('/v1/ping')];
    for (const res of answers) {
      assert.equal(res.status, 503, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'service_unavailable');
      assert.equal(res.headers.get('retry-after'), '5');
    }
    assert.equal(await unavailable(stack, 'postgres'), before.postgres + answers.length);
    assert.equal(await unavailable(stack, 'other'), before.other);

    await postgres.start();
    let res = await call();
    // The pool may still hold a connection of the stopped server: it fails once, as an outage.
    for (let i = 0; i < 5 && res.status === 503; i++) res = await call();
    assert.equal(res.status, 200, JSON.stringify(res.body));
  });
});
