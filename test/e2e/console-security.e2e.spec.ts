import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ConsoleUsersService } from '@verity/accounts';
import {
  ADMIN_TOKEN,
  ConsoleClient,
  CONSOLE_PASSWORD,
  consoleUser,
  rawRequest,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { postBatch, waitForJob } from './batch-helpers';

const bearer = { authorization: `Bearer ${ADMIN_TOKEN}` };
const PASSWORD = CONSOLE_PASSWORD;

/** Secrets never cached, sessions after a password change, signed links, sign-in links, atomic account creation. */
describe('console sign-in and secrets, probed as an attacker would', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: {
        // Each browser below speaks from its own address (X-Forwarded-For from the loopback proxy).
        TRUST_PROXY: '127.0.0.1',
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        BATCH_CHUNK_ROWS: '3',
      },
      modules: [IngestModule, ScorerModule],
    });
  });
  after(() => stack.close());

  const loginFrom = (address: string, email: string, password: string) =>
    new ConsoleClient(stack.client.baseUrl).post(
      '/auth/login',
      { email, password },
      { 'x-forwarded-for': address },
    );

  it('answers every secret-carrying request with Cache-Control: no-store', async () => {
    const { browser, apiKey } = await consoleUser(stack, 100, 'secrets@example.test');
    const key = stack.client.withKey(apiKey);
    const created = await key.post('/v1/keys', { name: 'second' });
    const rotated = await key.post(`/v1/keys/${created.body.id}/rotate`);
    const consoleKey = await browser.post('/keys', { name: 'console' });
    const answers: [string, { status: number; headers: Headers }][] = [
      ['GET /console/api/session', await browser.get('/session')],
      ['POST /console/api/webhooks/secret/reveal', await browser.post('/webhooks/secret/reveal')],
      ['POST /console/api/webhooks/secret/rotate', await browser.post('/webhooks/secret/rotate')],
      ['POST /console/api/keys', consoleKey],
      [
        'POST /console/api/keys/:id/rotate',
        await browser.post(`/keys/${consoleKey.body.id}/rotate`),
      ],
      ['GET /console/api/batch', await browser.get('/batch')],
      [
        'POST /console/api/auth/login',
        await loginFrom('198.51.100.30', 'secrets@example.test', PASSWORD),
      ],
      ['POST /v1/keys', created],
      ['POST /v1/keys/:id/rotate', rotated],
      [
        'POST /admin/accounts',
        await stack.client.post('/admin/accounts', { name: 'x', credits: 0 }, bearer),
      ],
    ];
    for (const [what, res] of answers) {
      assert.ok(res.status < 300, `${what}: ${res.status}`);
      assert.equal(res.headers.get('cache-control'), 'no-store', what);
    }
  });

  it('a password change ends the user’s other sessions and keeps the current one', async () => {
    const { browser } = await consoleUser(stack, 100, 'sessions@example.test');
    const laptop = new ConsoleClient(stack.client.baseUrl);
    assert.equal((await laptop.login('sessions@example.test', PASSWORD)).status, 200);
    const phone = new ConsoleClient(stack.client.baseUrl);
    assert.equal((await phone.login('sessions@example.test', PASSWORD)).status, 200);
    const changed = await browser.post('/auth/password', {
      password: 'a new long password',
      current_password: PASSWORD,
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    assert.equal((await browser.get('/session')).status, 200);
    assert.equal((await laptop.get('/session')).status, 401);
    assert.equal((await phone.get('/session')).status, 401);
  });

  it("lists a job with its upload's file name: the base name, control characters removed", async () => {
    const { browser, apiKey } = await consoleUser(stack, 100, 'names@example.test');
    const job = await postBatch(
      stack.client,
      apiKey,
      [
        ['type', 'email'],
        ['file', 'jane@example.com\n'],
      ],
      {},
      'C:\\exports\\leads\u202e november.csv',
    );
    assert.equal(job.status, 202, JSON.stringify(job.body));
    await waitForJob(stack.client.withKey(apiKey), job.body.id);
    const listed = await browser.get('/batch');
    assert.equal(listed.body.data[0].id, job.body.id);
    assert.equal(listed.body.data[0].file_name, 'leads november.csv');
    assert.equal((await browser.get(`/batch/${job.body.id}`)).body.file_name, 'leads november.csv');
  });

  it('signs console download links on its own address, never on the Host the client sends', async () => {
    const { browser, apiKey } = await consoleUser(stack, 100, 'links@example.test');
    const job = await postBatch(stack.client, apiKey, [
      ['type', 'email'],
      ['file', 'jane@example.com\n'],
    ]);
    assert.equal(job.status, 202, JSON.stringify(job.body));
    const polls = await waitForJob(stack.client.withKey(apiKey), job.body.id);
    assert.equal(polls.at(-1)?.body.status, 'done');
    // GET /v1/batch/{id} (a single-call route answered without Nest's router) carries the
    // signed link too.
    assert.equal(polls.at(-1)?.headers.get('cache-control'), 'no-store');
    for (const path of ['/console/api/batch', `/console/api/batch/${job.body.id}`]) {
      const answer = await rawRequest(stack.client.baseUrl, [
        `GET ${path} HTTP/1.1\r\nHost: evil.example\r\nX-Forwarded-Host: evil.example\r\n` +
          `Cookie: ${browser.cookie}\r\nConnection: close\r\n\r\n`,
      ]);
      assert.equal(answer?.status, 200, answer?.body);
      const body = JSON.parse(answer.body) as {
        result_url?: string;
        data?: { result_url: string }[];
      };
      const url = body.result_url ?? body.data?.[0]?.result_url;
      assert.ok(url?.startsWith(`${stack.client.baseUrl}/v1/batch/`), url);
    }
  });

  it('issuing a sign-in link retires the links issued before it', async () => {
    const created = await stack.client.post(
      '/admin/accounts',
      { name: 'Relink', credits: 0, owner_email: 'relink@example.test' },
      bearer,
    );
    assert.equal(created.status, 201);
    const again = await stack.client.post(
      '/admin/accounts',
      { name: 'Relink 2', credits: 0, owner_email: 'relink@example.test' },
      bearer,
    );
    // The email belongs to the first account: refused, and the first link is untouched.
    assert.equal(again.status, 422);
    const [user] = await stack.dataSource.query(
      `SELECT id FROM console_users WHERE email = 'relink@example.test'`,
    );
    const users = stack.app.get(ConsoleUsersService);
    const second = await users.issueLink(user.id);
    const third = await users.issueLink(user.id);
    for (const old of [created.body.sign_in_url as string, second.url]) {
      const res = await new ConsoleClient(stack.client.baseUrl).redeem(old);
      assert.equal(res.status, 401, `${old}: ${JSON.stringify(res.body)}`);
    }
    assert.equal((await new ConsoleClient(stack.client.baseUrl).redeem(third.url)).status, 200);
  });

  it('a sign-in link issued before a password change stops working after it', async () => {
    const { browser } = await consoleUser(stack, 100, 'stale-link@example.test');
    const [user] = await stack.dataSource.query(
      `SELECT id FROM console_users WHERE email = 'stale-link@example.test'`,
    );
    const users = stack.app.get(ConsoleUsersService);
    const unused = await users.issueLink(user.id);
    const changed = await browser.post('/auth/password', {
      password: 'another long password',
      current_password: PASSWORD,
    });
    assert.equal(changed.status, 200, JSON.stringify(changed.body));
    const stale = await new ConsoleClient(stack.client.baseUrl).redeem(unused.url);
    assert.equal(stale.status, 401);
    assert.match(stale.body.error.message, /not valid any more/);
    // A link issued after the change works.
    const fresh = await users.issueLink(user.id);
    assert.equal((await new ConsoleClient(stack.client.baseUrl).redeem(fresh.url)).status, 200);
  });

  it('a refused account creation leaves no row behind', async () => {
    await consoleUser(stack, 100, 'taken@example.test');
    const count = async () => {
      const [row] = await stack.dataSource.query(
        `SELECT (SELECT count(*) FROM accounts)::int AS accounts,
                (SELECT count(*) FROM api_keys)::int AS keys,
                (SELECT count(*) FROM credit_ledger)::int AS ledger,
                (SELECT count(*) FROM console_users)::int AS users`,
      );
      return row as Record<string, number>;
    };
    const before = await count();
    const refused = await stack.client.post(
      '/admin/accounts',
      { name: 'Squatter', credits: 500, owner_email: 'Taken@Example.test' },
      bearer,
    );
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.equal(refused.body.error.code, 'unprocessable');
    assert.deepEqual(await count(), before);
    const [named] = await stack.dataSource.query(
      `SELECT count(*)::int AS n FROM accounts WHERE name = 'Squatter'`,
    );
    assert.equal(named.n, 0);
  });
});
