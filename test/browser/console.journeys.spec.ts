import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { ApiKeysService } from '@verity/accounts';
import {
  ADMIN_TOKEN,
  freePort,
  launchChromium,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { devAccess, DEV_CONSOLE_EMAIL } from '../../apps/verity/src/start/dev-access';
import { FirstRunMarker } from '../../apps/verity/src/start/first-run.marker';
import { verifyWebhook, WEBHOOK_SIGNATURE_HEADER } from '@verity/batch';
import { eventually, postBatch, waitForJob } from '../e2e/batch-helpers';
import { PAGES, type PagePath } from '../../apps/console/src/page-table';

/** Screenshots of every page; CONSOLE_SCREENSHOTS=docs/console refreshes the committed set. */
const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join('test-results', 'console');
const PASSWORD = 'a long dev password';
/** Pages whose screenshots their own journey takes, with the data they show. */
const SHOT_ELSEWHERE = new Set<PagePath>(['/outcomes']); // console-outcomes.journeys.spec.ts
const ROWS = 1000;

describe('console journeys in Chromium', () => {
  let stack: TestStack;
  let browser: Browser | null = null;
  let skipReason: string | null = null;
  let base: string;
  let context: BrowserContext;
  let page: Page;
  let dev: { accountId: string; apiKey: string; link: string };
  let consoleJobId = '';

  const ready = (t: TestContext): boolean => {
    if (skipReason) t.skip(skipReason);
    return skipReason === null;
  };

  /** A browser page signed in as `email` (a fresh context: its own cookies). */
  async function signedIn(email: string, password: string, path = '/console/') {
    const ctx = await browser!.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    const p = await ctx.newPage();
    await p.goto(base + path);
    await p.waitForURL(/\/console\/sign-in/);
    await p.getByLabel('Email').fill(email);
    await p.getByLabel('Password').fill(password);
    await p.getByRole('button', { name: 'Sign in' }).click();
    return { ctx, p };
  }

  /** An account with a console user that has a password (through the admin API + link). */
  async function ownedAccount(name: string, credits: number, email: string) {
    const created = await stack.client.post(
      '/admin/accounts',
      { name, credits, owner_email: email },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    assert.equal(created.status, 201);
    const ctx = await browser!.newContext();
    const p = await ctx.newPage();
    await p.goto(created.body.sign_in_url);
    await p.getByLabel('New password').fill(PASSWORD);
    await p.getByLabel('Repeat the password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Save password and continue' }).click();
    await p.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await ctx.close();
    return { accountId: created.body.account_id as string, apiKey: created.body.api_key as string };
  }

  before(async () => {
    const launched = await launchChromium();
    if (typeof launched === 'string') {
      skipReason = launched;
      return;
    }
    browser = launched;
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    stack = await startTestStack({
      env: {
        PORT: String(port),
        CONSOLE_URL: `${base}/console`,
        PUBLIC_URL: base,
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
        BATCH_CHUNK_ROWS: '100',
        CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL: '3',
        WEBHOOK_ALLOW_PRIVATE: 'true',
        WEBHOOK_RETRY_BASE_MS: '200',
        DEV_ACCOUNT_CREDITS: '100000',
      },
      modules: [IngestModule, ScorerModule],
    });
    // What the first `npm start` does: the dev account, its key and the banner's one-time link.
    const access = await devAccess(
      stack.app,
      stack.config,
      FirstRunMarker.at(stack.config.VERITY_HOME),
    );
    dev = { accountId: access!.accountId, apiKey: access!.apiKey, link: access!.link.url };
    context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    });
    page = await context.newPage();
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('signs in with the printed one-time link, sets a password, signs out and in again', async (t) => {
    if (!ready(t)) return;
    assert.ok(dev.link.startsWith(`${base}/console/sign-in#token=`), dev.link);
    await page.goto(dev.link);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.screenshot({ path: join(SHOTS, 'set-password.png') });
    await page.getByRole('button', { name: 'Save password and continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    assert.equal(await page.locator('[data-balance]').getAttribute('data-balance'), '100000');
    const [user] = await stack.dataSource.query(
      'SELECT password_hash FROM console_users WHERE email = $1',
      [DEV_CONSOLE_EMAIL],
    );
    assert.match(user.password_hash, /^scrypt\$/);

    // The link is spent: opening it again does not sign in.
    const again = await browser!.newContext();
    const p2 = await again.newPage();
    await p2.goto(dev.link);
    await p2.getByRole('alert').waitFor();
    assert.match((await p2.getByRole('alert').textContent())!, /not valid any more/);
    await again.close();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'sign-in.png') });
    // Signed out: no session cookie; the device cookie stays, so this browser is still
    // trusted for its own sign-ins (docs/console.md, "Throttling").
    const left = (await context.cookies()).filter((c) => c.value !== '');
    assert.deepEqual(
      left.map((c) => [c.name, c.path, c.httpOnly, c.sameSite]),
      [['verity_device', '/console/api/auth', true, 'Strict']],
    );
    await page.getByLabel('Email').fill(DEV_CONSOLE_EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    const cookie = (await context.cookies()).find((c) => c.name === 'verity_console')!;
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
  });

  it('creates a key, shows its value once, rotates it (old 401, new 200) and deletes it (401)', async (t) => {
    if (!ready(t)) return;
    const ping = (key: string) =>
      fetch(`${base}/v1/ping`, { headers: { 'x-api-key': key } }).then((r) => r.status);
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('journey');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('[data-secret]');
    await secret.waitFor();
    assert.match((await page.locator('.secret').textContent())!, /you will not see this again/);
    assert.equal(
      await page.locator('.secret-label').textContent(),
      'New live key “journey”, its value',
    );
    const first = (await secret.textContent())!;
    assert.equal(await ping(first), 200);
    await page.screenshot({ path: join(SHOTS, 'keys-created.png') });

    await page.getByRole('button', { name: 'Rotate journey' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Rotate' }).click();
    await page.locator('[data-secret]', { hasNotText: first }).waitFor();
    const second = (await page.locator('[data-secret]').textContent())!;
    assert.notEqual(second, first);
    assert.equal(
      await page.locator('.secret-label').textContent(),
      'Live key “journey” rotated, its new value',
    );
    await page.screenshot({ path: join(SHOTS, 'keys-rotated.png') });
    assert.equal(await ping(first), 401);
    assert.equal(await ping(second), 200);

    await page.getByRole('button', { name: 'Delete journey' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('row', { name: /journey/ }).waitFor({ state: 'detached' });
    assert.equal(await ping(second), 401);
    const [row] = await stack.dataSource.query(
      `SELECT revoked_at, rotated_at FROM api_keys WHERE account_id = $1 AND name = 'journey'`,
      [dev.accountId],
    );
    assert.ok(row.revoked_at && row.rotated_at);
  });

  it('creates a test key: a "test" badge on its row, a vrt_test_ value that authenticates', async (t) => {
    if (!ready(t)) return;
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('ci');
    await page.getByLabel('Mode').selectOption('test');
    await page.getByRole('button', { name: 'Create key' }).click();
    const secret = page.locator('[data-secret]');
    await secret.waitFor();
    assert.equal(await page.locator('.secret-label').textContent(), 'New test key “ci”, its value');
    const value = (await secret.textContent())!;
    assert.match(value, /^vrt_test_[0-9A-Za-z]{24}$/);
    const row = page.getByRole('row', { name: /^ci/ });
    assert.equal(await row.locator('.badge-test').textContent(), 'test');
    assert.match((await row.locator('code').textContent())!, /^vrt_test_/);
    assert.equal(
      await page
        .getByRole('row', { name: /^default/ })
        .locator('.badge-test')
        .count(),
      0,
    );
    await page.screenshot({ path: join(SHOTS, 'keys-test-mode.png') });
    const ping = await fetch(`${base}/v1/ping`, { headers: { 'x-api-key': value } });
    assert.equal(ping.status, 200);

    await page.getByRole('button', { name: 'Delete ci' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('uploads a 1,000-row CSV, watches it finish, downloads the same file as the API gives', async (t) => {
    if (!ready(t)) return;
    const csv =
      Array.from({ length: ROWS }, (_, i) => `8.8.${i >> 8}.${i & 255}`).join('\n') + '\n';
    await page.getByRole('link', { name: 'Batch' }).click();
    await page.getByLabel('Type').selectOption('ip');
    await page
      .getByLabel('CSV file')
      .setInputFiles({ name: 'ips.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await page.getByRole('button', { name: 'Start job' }).click();
    await page.getByRole('status').filter({ hasText: 'created with 1,000 rows' }).waitFor();
    const row = page.locator('tr[data-job]').first();
    consoleJobId = (await row.getAttribute('data-job'))!;
    await page
      .locator(`tr[data-job="${consoleJobId}"][data-status="done"]`)
      .waitFor({ timeout: 120_000 });
    const bar = row.locator('progress');
    assert.equal(await bar.getAttribute('value'), String(ROWS));
    assert.equal(await bar.getAttribute('max'), String(ROWS));
    assert.equal((await row.locator('[data-rows]').textContent())!.trim(), '1,000 / 1,000');
    assert.equal(await row.locator('[data-file-name]').textContent(), 'ips.csv');
    // Created and finished each fit on one line: an inline element that wraps has a box per line.
    const dates = await row.locator('td.when time').all();
    assert.equal(dates.length, 2);
    for (const date of dates) {
      assert.equal(await date.evaluate((el) => el.getClientRects().length), 1);
    }
    await page.screenshot({ path: join(SHOTS, 'batch-done.png') });
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      row.getByRole('link', { name: 'Download' }).click(),
    ]);
    const fromBrowser = readFileSync(await download.path(), 'utf8');
    // Saved under the name the CLI gives it: the uploaded file's stem + -results.csv.
    assert.equal(download.suggestedFilename(), 'ips-results.csv');

    const viaApi = await postBatch(stack.client, dev.apiKey, [
      ['type', 'ip'],
      ['file', csv],
    ]);
    assert.equal(viaApi.status, 202);
    const client = stack.client.withKey(dev.apiKey);
    const final = (await waitForJob(client, viaApi.body.id, 120_000)).at(-1)!.body;
    assert.equal(final.status, 'done');
    const fromApi = await (await fetch(final.result_url)).text();
    assert.equal(fromBrowser.split('\n').length, ROWS + 2);
    assert.equal(fromBrowser, fromApi);
  });

  it('the usage chart shows the calls just made, by operation and by key', async (t) => {
    if (!ready(t)) return;
    const api = stack.client.withKey(dev.apiKey);
    for (let i = 0; i < 3; i++)
      assert.equal(
        (await api.post('/v1/email/validate', { email: `a${i}@example.com` })).status,
        200,
      );
    for (let i = 0; i < 2; i++)
      assert.equal((await api.post('/v1/ip/intel', { ip: '1.1.1.1' })).status, 200);
    await page.getByRole('link', { name: 'Overview' }).click();
    const cell = (op: string) =>
      page.locator(`table[data-usage-table] tbody tr:last-child td[data-operation="${op}"]`);
    await page.getByText('Numbers behind the chart').click();
    await cell('batch_row').waitFor();
    // Both batch jobs (console and API), the emails and the IP calls, today.
    assert.equal(await cell('batch_row').textContent(), String(2 * ROWS));
    assert.equal(await cell('email_validate').textContent(), '3');
    assert.equal(await cell('ip_intel').textContent(), '2');
    const label = await page
      .getByRole('img', { name: / in the last \d+ days, by operation/ })
      .getAttribute('aria-label');
    assert.match(label!, new RegExp(`^${(2 * ROWS + 5).toLocaleString('en-US')} calls`));
    await page.screenshot({ path: join(SHOTS, 'overview.png'), fullPage: true });

    const [devKey] = await stack.dataSource.query(
      `SELECT id FROM api_keys WHERE account_id = $1 AND name = 'default'`,
      [dev.accountId],
    );
    await page.getByLabel('Key').selectOption(devKey.id);
    await cell('batch_row')
      .filter({ hasText: /^1000$/ })
      .waitFor();
    assert.equal(await cell('email_validate').textContent(), '3');

    // Calls with a test key are free and shown apart, under "Test calls".
    const testKey = await stack.app
      .get(ApiKeysService)
      .create(dev.accountId, 'ci', undefined, 'test');
    const test = stack.client.withKey(testKey.key);
    for (let i = 0; i < 2; i++)
      assert.equal((await test.post('/v1/email/validate', { email: 'a@example.com' })).status, 200);
    await page.getByLabel('Key').selectOption('');
    await cell('batch_row')
      .filter({ hasText: new RegExp(`^${2 * ROWS}$`) })
      .waitFor({ state: 'attached' });
    assert.equal(await cell('email_validate').textContent(), '3');
    await page.getByRole('radio', { name: 'Test calls' }).check();
    await cell('email_validate').filter({ hasText: /^2$/ }).waitFor({ state: 'attached' });
    assert.equal(await cell('batch_row').count(), 0);
    await page.getByRole('radio', { name: 'Calls', exact: true }).check();
  });

  it('the billing page shows what was bought and spent: calls per key, the batch charge, no lease bookkeeping', async (t) => {
    if (!ready(t)) return;
    await page.getByRole('link', { name: 'Billing' }).click();
    const calls = page.getByRole('table', { name: /^Calls per key and operation, per/ });
    const emails = calls.locator('tr[data-key="default"][data-operation="email_validate"]');
    await emails.waitFor();
    assert.equal(await emails.getAttribute('data-calls'), '3');
    assert.match((await emails.textContent())!, /default.*Email.*3.*−3/);
    assert.equal(
      await calls
        .locator('tr[data-key="default"][data-operation="ip_intel"]')
        .getAttribute('data-calls'),
      '2',
    );
    const job = page.locator(`tr[data-job="${consoleJobId}"]`);
    assert.equal(await job.getAttribute('data-refunded'), '0');
    // Each job by its file name, its id beneath.
    assert.equal(await job.locator('[data-file-name]').textContent(), 'ips.csv');
    assert.equal(await job.locator('code').textContent(), consoleJobId);
    assert.match((await job.textContent())!, new RegExp(`−${ROWS.toLocaleString('en-US')}`));
    assert.equal(await page.locator('tr[data-added="100000"]').count(), 1);
    assert.equal(await page.locator('tr[data-reason]').count(), 0, 'no raw ledger rows by default');
    assert.match(
      (await page.locator('[data-account-id]').textContent())!,
      new RegExp(dev.accountId),
    );
    // This server has ADMIN_TOKEN set: the admin API adds credits.
    assert.match(
      (await page.locator('section', { has: page.locator('#add-h') }).textContent())!,
      new RegExp(`Bearer \\$ADMIN_TOKEN[\\s\\S]*/admin/accounts/${dev.accountId}/credits`),
    );
    await page.getByRole('radio', { name: 'Hour' }).check();
    await calls.locator('tr[data-key="default"][data-operation="email_validate"]').waitFor();
    await page.getByRole('radio', { name: 'Day' }).check();
    await page.screenshot({ path: join(SHOTS, 'billing.png'), fullPage: true });
    // The raw ledger, lease movements included, is folded away as the operator's detail.
    await page.getByText('Ledger entries (operator detail)').click();
    const debit = page.locator('tr[data-reason="batch_row"]', { hasText: consoleJobId });
    await debit.waitFor();
    assert.equal(await debit.getAttribute('data-delta'), String(-ROWS));
  });

  it('without the admin API the Billing page gives the CLI command that adds credits', async (t) => {
    if (!ready(t)) return;
    const port = await freePort();
    const closed = await startTestStack({
      database: stack.database,
      env: { PORT: String(port), ADMIN_TOKEN: '' },
    });
    try {
      const ctx = await browser!.newContext();
      const p = await ctx.newPage();
      await p.goto(`http://127.0.0.1:${port}/console/billing`);
      await p.getByLabel('Email').fill(DEV_CONSOLE_EMAIL);
      await p.getByLabel('Password').fill(PASSWORD);
      await p.getByRole('button', { name: 'Sign in' }).click();
      const cli = p.locator('[data-add-credits="cli"]');
      await cli.waitFor();
      assert.match((await cli.textContent())!, /admin API is off on this server/);
      assert.equal(
        (await p
          .locator('section', { has: p.locator('#add-h') })
          .locator('pre')
          .textContent())!,
        `node bin/verity.js accounts credit --account ${dev.accountId} --amount 10000`,
      );
      assert.equal(await p.locator('[data-add-credits="admin-api"]').count(), 0);
      await p.screenshot({ path: join(SHOTS, 'billing-cli.png'), fullPage: true });
      await ctx.close();
    } finally {
      await closed.close();
    }
  });

  it('a 402 link opened in the browser lands on billing after sign-in', async (t) => {
    if (!ready(t)) return;
    const broke = await ownedAccount('broke', 0, 'broke@example.test');
    const res = await stack.client
      .withKey(broke.apiKey)
      .post('/v1/email/validate', { email: 'a@example.com' });
    assert.equal(res.status, 402);
    const link = /(https?:\/\/\S+\/billing)/.exec(res.body.error.message)![1];
    assert.equal(link, `${base}/console/billing`);
    const ctx = await browser!.newContext();
    const p = await ctx.newPage();
    await p.goto(link);
    await p.waitForURL(/\/console\/sign-in\?next=%2Fconsole%2Fbilling/);
    await p.getByLabel('Email').fill('broke@example.test');
    await p.getByLabel('Password').fill(PASSWORD);
    await p.getByRole('button', { name: 'Sign in' }).click();
    await p.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
    assert.equal(new URL(p.url()).pathname, '/console/billing');
    assert.equal(await p.locator('[data-balance]').getAttribute('data-balance'), '0');
    await ctx.close();
  });

  it("another account's user cannot see this account's jobs, keys or ledger by changing ids", async (t) => {
    if (!ready(t)) return;
    await ownedAccount('other', 10, 'other@example.test');
    const { ctx, p } = await signedIn('other@example.test', PASSWORD, '/console/batch');
    await p.getByRole('heading', { level: 1, name: 'Batch' }).waitFor();
    await p.getByText('No jobs yet').waitFor();
    const devKeyId = (
      await stack.dataSource.query(
        `SELECT id FROM api_keys WHERE account_id = $1 AND name = 'default'`,
        [dev.accountId],
      )
    )[0].id as string;
    const probes = await p.evaluate(
      async ({ job, key }) => {
        const session = (await (await fetch('/console/api/session')).json()) as any;
        const post = (path: string) =>
          fetch(path, { method: 'POST', headers: { 'x-csrf-token': session.csrf_token } }).then(
            (r) => r.status,
          );
        const ledger = (await (await fetch('/console/api/ledger')).json()) as any;
        return {
          job: (await fetch(`/console/api/batch/${job}`)).status,
          rotate: await post(`/console/api/keys/${key}/rotate`),
          remove: (
            await fetch(`/console/api/keys/${key}`, {
              method: 'DELETE',
              headers: { 'x-csrf-token': session.csrf_token },
            })
          ).status,
          usage: ((await (await fetch(`/console/api/usage?key_id=${key}`)).json()) as any).data
            .length,
          ledgerRefs: ledger.data.map((e: { reference: string | null }) => e.reference),
        };
      },
      { job: consoleJobId, key: devKeyId },
    );
    assert.deepEqual(
      { job: probes.job, rotate: probes.rotate, remove: probes.remove, usage: probes.usage },
      { job: 404, rotate: 404, remove: 404, usage: 0 },
    );
    assert.ok(!probes.ledgerRefs.includes(consoleJobId));
    await ctx.close();
  });

  it('a cross-site form POST is refused and changes nothing', async (t) => {
    if (!ready(t)) return;
    const evil: Server = createServer((_, res) => {
      res.setHeader('content-type', 'text/html');
      res.end(`<form method="post" enctype="multipart/form-data" action="${base}/console/api/keys">
        <input name="name" value="planted"></form><script>document.forms[0].submit()</script>`);
    });
    await new Promise<void>((resolve) => evil.listen(0, '127.0.0.1', resolve));
    const address = evil.address();
    const evilPort = typeof address === 'object' && address ? address.port : 0;
    try {
      const answer = page.waitForResponse((r) => r.url() === `${base}/console/api/keys`);
      await page.goto(`http://127.0.0.1:${evilPort}/`);
      const response = await answer;
      assert.equal(response.status(), 403);
      assert.match(await response.text(), /cross-site request refused/);
    } finally {
      await new Promise((resolve) => evil.close(resolve));
    }
    const planted = await stack.dataSource.query(`SELECT 1 FROM api_keys WHERE name = 'planted'`);
    assert.equal(planted.length, 0);
  });

  it('runs a verify call in the playground with its reasons', async (t) => {
    if (!ready(t)) return;
    await page.goto(`${base}/console/playground`);
    await page.getByLabel('Call', { exact: true }).selectOption('verify');
    await page.getByLabel('IP address').fill('8.8.8.8');
    await page.getByRole('button', { name: 'Run' }).click();
    const verdict = page.locator('[data-verdict]');
    await verdict.waitFor();
    assert.match((await verdict.textContent())!, /^(Low|Medium|High) risk · fraud score \d+\/100$/);
    const reasons = page.getByRole('list', { name: 'Reasons' });
    assert.ok((await reasons.getByRole('listitem').count()) > 0);
    // The reasons come before the signals' fields, and the JSON only on request.
    const [reasonsTop, factsTop] = await Promise.all([
      reasons.evaluate((el) => el.getBoundingClientRect().top),
      page
        .locator('.facts')
        .first()
        .evaluate((el) => el.getBoundingClientRect().top),
    ]);
    assert.ok(reasonsTop < factsTop);
    assert.equal(await page.locator('[data-result]').count(), 0);
    await page.screenshot({ path: join(SHOTS, 'playground.png'), fullPage: true });
    await page.getByRole('button', { name: 'Show the JSON answer' }).click();
    const result = JSON.parse((await page.locator('[data-result]').textContent())!);
    assert.equal(result.credits_used, 3);
    assert.ok(Array.isArray(result.reasons));
    assert.equal(await reasons.getByRole('listitem').count(), result.reasons.length);
    await page.getByRole('button', { name: 'Hide the JSON answer' }).click();
    assert.equal(await page.locator('[data-result]').count(), 0);
  });

  it('the playground disables live HLR when the server has no HLR provider, and says why', async (t) => {
    if (!ready(t)) return;
    await page.goto(`${base}/console/playground`);
    await page.getByLabel('Call', { exact: true }).selectOption('phone');
    const box = page.getByRole('checkbox', { name: 'Live HLR lookup' });
    assert.equal(await box.isDisabled(), true);
    assert.match(
      (await page.locator('#pg-hlr-note').textContent())!,
      /No HLR provider is configured on this server/,
    );
    assert.equal(await box.getAttribute('aria-describedby'), 'pg-hlr-note');
  });

  it('the playground parses a national number with the country given, for phone and verify calls', async (t) => {
    if (!ready(t)) return;
    /** One call from a fresh page (no answer of the last one on screen): its JSON answer. */
    const call = async (kind: string, phone: string, country: string | null) => {
      await page.goto(`${base}/console/playground`);
      await page.getByLabel('Call', { exact: true }).selectOption(kind);
      await page.getByLabel('Phone', { exact: true }).fill(phone);
      if (country !== null) await page.getByLabel('Country (optional)').fill(country);
      await page.getByRole('button', { name: 'Run' }).click();
      await page.locator('[data-verdict]').waitFor();
      await page.getByRole('button', { name: 'Show the JSON answer' }).click();
      return JSON.parse((await page.locator('[data-result]').textContent())!);
    };
    const without = await call('phone', '07400 123456', null);
    assert.equal(without.valid, false, 'without its country the number is not valid');
    const phone = await call('phone', '07400 123456', 'gb');
    assert.equal(phone.valid, true);
    assert.equal(phone.e164, '+447400123456');
    const verify = await call('verify', '07400 123456', 'GB');
    assert.equal(verify.phone.e164, '+447400123456');
  });

  it('links the API docs in the header and serves a favicon', async (t) => {
    if (!ready(t)) return;
    await page.goto(`${base}/console/keys`);
    const docs = page.getByRole('link', { name: 'API docs' });
    assert.equal(await docs.getAttribute('href'), '/v1/docs');
    assert.equal((await fetch(`${base}/v1/docs`)).status, 200);
    const icon = await page.request.get(`${base}/favicon.ico`);
    assert.equal(icon.status(), 200);
    assert.equal(icon.headers()['content-type'], 'image/svg+xml');
    assert.match(await icon.text(), /^<svg /);
  });

  it("shows a job's webhook attempts with their URL, resends one, sends a test event, and reveals the secret that signs them", async (t) => {
    if (!ready(t)) return;
    const received: { body: string; signature: string; delivery: string }[] = [];
    const receiver: Server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({
          body,
          signature: String(req.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()]),
          delivery: String(req.headers['verity-delivery']),
        });
        // The first attempt fails, so the page has a retry to show.
        res.statusCode = received.length === 1 ? 500 : 200;
        res.end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const address = receiver.address();
    const hook = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
    try {
      await page.goto(`${base}/console/batch`);
      await page.getByLabel('Type').selectOption('ip');
      await page.getByLabel('CSV file').setInputFiles({
        name: 'three.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('1.1.1.1\n8.8.4.4\n9.9.9.9\n'),
      });
      await page.getByLabel('Webhook URL (optional)').fill(hook);
      await page.getByRole('button', { name: 'Start job' }).click();
      await page.getByRole('status').filter({ hasText: 'created with 3 rows' }).waitFor();
      await eventually(
        () => Promise.resolve(received.length >= 2 ? true : undefined),
        'two webhook attempts',
        60_000,
      );
      await page.getByRole('link', { name: 'Webhooks' }).click();
      const attempts = page
        .getByRole('table', { name: 'Webhook delivery attempts' })
        .locator('tbody tr');
      await attempts.nth(1).waitFor();
      assert.match((await attempts.nth(0).textContent())!, /HTTP 200/);
      assert.match((await attempts.nth(1).textContent())!, /HTTP 500/);
      assert.equal(await attempts.nth(0).locator('td.url').textContent(), hook);
      const jobId = (await attempts.nth(0).getAttribute('data-job'))!;

      await attempts.nth(0).getByRole('button', { name: 'Resend' }).click();
      await page.getByRole('status').filter({ hasText: 'attempt 3' }).waitFor();
      await eventually(
        () => Promise.resolve(received.find((r) => r.delivery === `${jobId}.3`)),
        'the resent delivery',
      );
      await page.getByRole('link', { name: 'Overview' }).click();
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await attempts.nth(2).waitFor();
      assert.equal(await attempts.nth(0).locator('td').nth(3).textContent(), '3');
      assert.match((await attempts.nth(0).textContent())!, /HTTP 200/);

      await page.getByLabel('URL', { exact: true }).fill(hook);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: `Test event delivered: ${hook} answered HTTP 200.` })
        .waitFor();
      await page.locator('tr[data-job="test"]').waitFor();
      assert.equal(await page.locator('tr[data-job="test"] td.url').textContent(), hook);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
    await page.getByRole('button', { name: 'Reveal secret' }).click();
    const secret = (await page.locator('[data-secret]').textContent())!;
    const now = Math.floor(Date.now() / 1000);
    const resent = received.find((r) => r.delivery.endsWith('.3'))!;
    const test = received.at(-1)!;
    assert.equal(JSON.parse(test.body).test, true);
    for (const r of [received[1], resent, test])
      assert.equal(verifyWebhook(r.signature, r.body, secret, 300, now), 'ok', r.delivery);
    await page.screenshot({ path: join(SHOTS, 'webhooks.png'), fullPage: true });
  });

  it('wrong passwords throttle sign-in with a message in words', async (t) => {
    if (!ready(t)) return;
    const ctx = await browser!.newContext();
    const p = await ctx.newPage();
    await p.goto(`${base}/console/sign-in`);
    const attempt = async () => {
      await p.getByLabel('Email').fill('other@example.test');
      await p.getByLabel('Password').fill('not the password');
      const answered = p.waitForResponse((r) => r.url().endsWith('/console/api/auth/login'));
      await p.getByRole('button', { name: 'Sign in' }).click();
      const status = (await answered).status();
      await p.locator('button[type=submit]:not([disabled])').waitFor();
      await p.getByRole('alert').waitFor();
      return `${status} ${await p.getByRole('alert').textContent()}`;
    };
    const messages: string[] = [];
    for (let i = 0; i < 4; i++) messages.push(await attempt());
    // One sentence: the server's message, without its code.
    assert.equal(messages[0], '401 Email or password is incorrect.');
    assert.match(messages[3], /^429 Too many failed sign-ins; try again in \d+ seconds\.$/);
    await ctx.close();
  });

  it('every page renders at 1280 and 390 px without horizontal scrolling (screenshots saved)', async (t) => {
    if (!ready(t)) return;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      for (const { path, title } of PAGES) {
        await page.goto(`${base}/console${path}`);
        await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
        await page.waitForLoadState('networkidle');
        assert.equal(await page.title(), `${title} · Verity console`);
        const overflow = await page.evaluate<number>(
          'document.documentElement.scrollWidth - document.documentElement.clientWidth',
        );
        assert.ok(overflow <= 0, `/console${path} at ${width}px scrolls sideways by ${overflow}px`);
        if (SHOT_ELSEWHERE.has(path)) continue;
        await page.screenshot({
          path: join(SHOTS, `${path === '/' ? 'overview' : path.slice(1)}-${width}.png`),
          fullPage: true,
        });
      }
    }
  });

  it('is usable from the keyboard: skip link, navigation and focus visible', async (t) => {
    if (!ready(t)) return;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${base}/console/`);
    await page.locator('main h1').waitFor();
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate<string>('document.activeElement?.textContent'),
      'Skip to content',
    );
    let reached = false;
    for (let i = 0; i < 10 && !reached; i++) {
      await page.keyboard.press('Tab');
      reached = (await page.evaluate<string>('document.activeElement?.textContent')) === 'API keys';
    }
    assert.ok(reached, 'Tab reaches the API keys link');
    const outline = await page.evaluate<string>(
      'getComputedStyle(document.activeElement).outlineStyle',
    );
    assert.notEqual(outline, 'none');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor();
  });
});
