import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import {
  CONSOLE_PASSWORD,
  consoleUser,
  freePort,
  launchChromium,
  LoopbackDnsServer,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { postBatch, waitForJob } from '../e2e/batch-helpers';

/** Screenshots; CONSOLE_SCREENSHOTS=docs/console refreshes the committed set. */
const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join('test-results', 'console');
/** The Batch page's page size (apps/console/src/pages/job-list.ts). */
const PER_PAGE = 20;
const SLOW_ROWS = 200;
/** A long file name: the jobs table still fits the 1280 px layout with it. */
const SIGNUPS = 'signups-from-the-autumn-campaign-2026-every-region-and-every-partner-list.csv';

/** Email rows each on its own domain: with the slow resolver every row takes its own lookups. */
function slowEmails(tag: string): string {
  return Array.from({ length: SLOW_ROWS }, (_, i) => `u${i}@${tag}-${i}.example`).join('\n') + '\n';
}

describe('console journeys in Chromium: the Batch page lists, filters, pages and cancels', () => {
  let stack: TestStack;
  let slow: LoopbackDnsServer;
  let browser: Browser | null = null;
  let skipReason: string | null = null;

  const ready = (t: TestContext): boolean => {
    if (skipReason) t.skip(skipReason);
    return skipReason === null;
  };

  /** A console user of a new account, signed in on the Batch page of a fresh browser context. */
  async function onBatchPage(credits: number, email: string) {
    const user = await consoleUser(stack, credits, email);
    const ctx = await browser!.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    await page.goto(`${stack.client.baseUrl}/console/batch`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Batch' }).waitFor();
    return { ...user, page, close: () => ctx.close() };
  }

  const fileNames = (page: Page) => page.locator('tr[data-job] [data-file-name]').allTextContents();

  before(async () => {
    const launched = await launchChromium();
    if (typeof launched === 'string') {
      skipReason = launched;
      return;
    }
    browser = launched;
    // Late DNS answers keep an email job processing for seconds: long enough to cancel it.
    slow = new LoopbackDnsServer({ zone: {}, delayMs: 60 });
    const dns = await slow.start();
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    stack = await startTestStack({
      env: {
        PORT: String(port),
        CONSOLE_URL: `${base}/console`,
        PUBLIC_URL: base,
        DNS_SERVERS: `${dns.host}:${dns.port}`,
        BATCH_EMAIL_CONCURRENCY: '1',
        BATCH_CHUNK_ROWS: '10',
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
      },
      modules: [IngestModule, ScorerModule],
    });
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
    await slow?.stop();
  });

  it('lists the jobs by file name, filters them by status and loads the next page', async (t) => {
    if (!ready(t)) return;
    const { page, apiKey, close } = await onBatchPage(10_000, 'list@batch-journey.test');
    const client = stack.client.withKey(apiKey);
    const names: string[] = [];
    // More done jobs than a page, created ten at a time (the account's limit of active jobs).
    for (let round = 0; round < 3; round++) {
      const ids: string[] = [];
      for (let i = 0; i < (round < 2 ? 10 : 2); i++) {
        const name = `ips-${names.length + 1}.csv`;
        const job = await postBatch(
          stack.client,
          apiKey,
          [
            ['type', 'ip'],
            ['file', `8.8.8.${i}\n`],
          ],
          {},
          name,
        );
        assert.equal(job.status, 202, JSON.stringify(job.body));
        ids.push(job.body.id);
        names.push(name);
      }
      for (const id of ids)
        assert.equal((await waitForJob(client, id)).at(-1)?.body.status, 'done');
    }
    const slowJob = await postBatch(
      stack.client,
      apiKey,
      [
        ['type', 'email'],
        ['file', slowEmails('list')],
      ],
      {},
      'leads.csv',
    );
    assert.equal(slowJob.status, 202);
    assert.equal((await client.delete(`/v1/batch/${slowJob.body.id}`)).status, 200);
    names.push('leads.csv');
    const newestFirst = [...names].reverse();

    await page.reload();
    await page.locator('tr[data-job]').first().waitFor();
    assert.deepEqual(await fileNames(page), newestFirst.slice(0, PER_PAGE));
    const cancelledRow = page.locator(`tr[data-job="${slowJob.body.id}"]`);
    assert.equal(await cancelledRow.locator('.status').textContent(), 'Cancelled');
    assert.equal(await cancelledRow.locator('.failed-note').count(), 0);
    assert.equal(
      await page.locator('[data-shown]').textContent(),
      `${PER_PAGE} jobs shown; older ones follow`,
    );
    await page.screenshot({ path: join(SHOTS, 'batch-list.png'), fullPage: true });

    await page.getByRole('button', { name: `Load ${PER_PAGE} more` }).click();
    await page
      .locator('tr[data-job]')
      .nth(names.length - 1)
      .waitFor();
    assert.deepEqual(await fileNames(page), newestFirst);
    assert.equal(await page.getByRole('button', { name: /^Load/ }).count(), 0);
    assert.equal(await page.locator('[data-shown]').textContent(), `${names.length} jobs shown`);

    await page.getByLabel('Status').selectOption('failed');
    // The list shows "Loading" between the filters: wait for the filtered rows themselves.
    await page
      .locator('[data-shown]')
      .filter({ hasText: /^\s*1 job shown\s*$/ })
      .waitFor();
    assert.deepEqual(await fileNames(page), ['leads.csv']);
    assert.equal(await page.locator('tr[data-job] .status').textContent(), 'Cancelled');

    await page.getByLabel('Status').selectOption('done');
    await page
      .locator('tr[data-job]')
      .nth(PER_PAGE - 1)
      .waitFor();
    assert.deepEqual(await fileNames(page), newestFirst.slice(1, PER_PAGE + 1));
    await page.getByRole('button', { name: `Load ${PER_PAGE} more` }).click();
    await page
      .locator('tr[data-job]')
      .nth(names.length - 2)
      .waitFor();
    assert.deepEqual(await fileNames(page), newestFirst.slice(1));
    for (const row of await page.locator('tr[data-job]').all()) {
      assert.equal(await row.locator('.status').textContent(), 'Done');
      assert.equal(await row.getByRole('link', { name: 'Download' }).count(), 1);
    }

    await page.getByLabel('Status').selectOption('queued');
    await page.getByText('No queued jobs.').waitFor();
    await close();
  });

  it('cancels a running job after a confirmation; its row reads Cancelled with its refund', async (t) => {
    if (!ready(t)) return;
    const { page, close } = await onBatchPage(1_000, 'cancel@batch-journey.test');
    await page.getByLabel('Type').selectOption('email');
    await page.getByLabel('CSV file').setInputFiles({
      name: SIGNUPS,
      mimeType: 'text/csv',
      buffer: Buffer.from(slowEmails('cancel')),
    });
    await page.getByRole('button', { name: 'Start job' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `created with ${SLOW_ROWS} rows` })
      .waitFor();
    const row = page.locator('tr[data-job]').first();
    const jobId = (await row.getAttribute('data-job'))!;
    const first = (await row.locator('[data-rows]').textContent())!;
    // The page refreshes the running row: its processed rows move without a reload.
    await page
      .locator(`tr[data-job="${jobId}"][data-status="processing"] [data-rows]`)
      .filter({ hasNotText: new RegExp(`^\\s*${first.trim()}\\s*$`) })
      .waitFor({ timeout: 60_000 });
    assert.equal(await row.locator('.status').textContent(), 'Processing');
    // The whole table fits the 1280 px layout: the Cancel column is on screen, nothing scrolls.
    const wrap = page.locator('.table-wrap', {
      has: page.getByRole('table', { name: 'Batch jobs' }),
    });
    const [scroll, client] = await wrap.evaluate((el) => [el.scrollWidth, el.clientWidth]);
    assert.ok(scroll <= client, `the jobs table is ${scroll} px wide in ${client} px`);
    const cancelBox = (await row.getByRole('button', { name: `Cancel ${SIGNUPS}` }).boundingBox())!;
    assert.ok(cancelBox.x + cancelBox.width <= 1280, JSON.stringify(cancelBox));

    await row.getByRole('button', { name: `Cancel ${SIGNUPS}` }).click();
    const dialog = page.getByRole('dialog');
    const question = (await dialog.locator('p').textContent())!;
    assert.match(
      question,
      new RegExp(
        `^Cancel job “${SIGNUPS.replace(/\./g, '\\.')}”\\? Rows not yet processed \\(\\d+ of ${SLOW_ROWS}\\) are refunded; rows already processed stay charged and can be downloaded\\.$`,
      ),
    );
    await page.screenshot({ path: join(SHOTS, 'batch-cancel.png') });
    await dialog.getByRole('button', { name: 'Cancel job' }).click();

    await page.locator(`tr[data-job="${jobId}"][data-status="failed"]`).waitFor();
    assert.equal(await row.locator('.status').textContent(), 'Cancelled');
    assert.equal(await row.getByRole('button', { name: /^Cancel/ }).count(), 0);
    const processed = Number(
      /^\s*([\d,]+) \//.exec((await row.locator('[data-rows]').textContent())!)![1],
    );
    assert.ok(processed < SLOW_ROWS);
    const refund = SLOW_ROWS - processed;
    assert.equal(await row.locator('[data-refunded]').textContent(), String(refund));
    await page
      .getByRole('status')
      .filter({ hasText: `Job “${SIGNUPS}” cancelled: ${refund} credits refunded.` })
      .waitFor();
    // The rows scored before the cancel, offered for download when there are any.
    const scored = row.getByRole('link', {
      name: new RegExp(`scored rows of ${SIGNUPS.replace(/\./g, '\\.')}$`),
    });
    assert.equal(await scored.count(), processed > 0 ? 1 : 0);
    if (processed > 0) {
      const csv = await (await fetch((await scored.getAttribute('href'))!)).text();
      assert.equal(csv.trimEnd().split('\n').length, processed + 1);
    }
    // Updated in place: still one row, no reload of the list.
    assert.equal(await page.locator('tr[data-job]').count(), 1);
    const ledger = await stack.dataSource.query<{ reason: string; delta: string }[]>(
      'SELECT reason, delta FROM credit_ledger WHERE reference = $1 ORDER BY id',
      [jobId],
    );
    assert.deepEqual(
      ledger.map((l) => `${l.reason} ${l.delta}`),
      [`batch_row -${SLOW_ROWS}`, `batch_refund ${refund}`],
    );
    await page.screenshot({ path: join(SHOTS, 'batch-cancelled.png'), fullPage: true });

    // The status filter's Cancelled lists it (GET /batch?status=cancelled). The list before
    // showed the same one job: wait for the filtered answer, then for the list drawn from it.
    const filtered = page.waitForResponse((r) => r.url().includes('status=cancelled'));
    await page.getByLabel('Status').selectOption('cancelled');
    await filtered;
    await page
      .locator('[data-shown]')
      .filter({ hasText: /^\s*1 job shown\s*$/ })
      .waitFor();
    assert.deepEqual(await fileNames(page), [SIGNUPS]);

    await page.getByRole('link', { name: 'Overview' }).click();
    const recent = page.locator(`tr[data-job="${jobId}"]`);
    await recent.waitFor();
    assert.equal(await recent.locator('.status').textContent(), 'Cancelled');
    assert.equal(await recent.locator('[data-refunded]').textContent(), String(refund));
    assert.equal(
      await page.locator('[data-balance]').getAttribute('data-balance'),
      String(1_000 - processed),
    );
    await close();
  });
  it('reads the chosen file in the browser: its columns with a guess, its first rows and the cost, then starts', async (t) => {
    if (!ready(t)) return;
    const { page, apiKey, close } = await onBatchPage(1_000, 'columns@batch-journey.test');
    const records = [
      '"Doe, Jane",jane@gmial.com,+44 7400 123456,Acme',
      'Bob,bob@example.com,+1 415 555 0100,"Widgets ""R"" Us"',
      'Ann,ann@example.org,+33 6 12 34 56 78,Initech',
    ];
    await page.getByLabel('Type').selectOption('email');
    await page.getByLabel('Result columns').selectOption('all');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'crm.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`Name,Work Email,Mobile,Company\n${records.join('\n')}\n`),
    });
    const preview = page.locator('[data-preview]');
    await preview.waitFor();
    const column = page.getByLabel('Column to check');
    // The header's names are the choices; the email column is guessed by its name.
    assert.deepEqual(
      (await column.locator('option').allTextContents()).map((o) => o.trim()),
      [
        'Choose the column…',
        'Name (e.g. Doe, Jane)',
        'Work Email (e.g. jane@gmial.com)',
        'Mobile (e.g. +44 7400 123456)',
        'Company (e.g. Acme)',
      ],
    );
    assert.equal(await column.inputValue(), '1');
    assert.equal(await page.getByLabel(/The first line is a header/).isChecked(), true);
    // The first rows, parsed as the server reads them, the chosen column marked.
    const table = page.getByRole('table', { name: 'First rows of crm.csv' });
    assert.deepEqual(await table.locator('thead th').allTextContents(), [
      'Name',
      'Work Email',
      'Mobile',
      'Company',
    ]);
    assert.equal(await table.locator('tr[data-preview-row]').count(), 3);
    assert.deepEqual(await table.locator('td.chosen').allTextContents(), [
      'jane@gmial.com',
      'bob@example.com',
      'ann@example.org',
    ]);
    assert.equal(
      await table.locator('tr[data-preview-row]').nth(1).locator('td').nth(3).textContent(),
      'Widgets "R" Us',
    );
    const cost = page.locator('[data-cost]');
    assert.equal(await cost.getAttribute('data-cost'), '3');
    assert.equal(
      (await cost.textContent())!.trim(),
      '3 rows: 3 credits (1 per row), charged when the job starts.',
    );
    // The guess follows the type.
    await page.getByLabel('Type').selectOption('phone');
    assert.equal(await column.inputValue(), '2');
    await page.getByLabel('Type').selectOption('email');
    assert.equal(await column.inputValue(), '1');
    await page.screenshot({ path: join(SHOTS, 'batch-upload-preview.png'), fullPage: true });

    await page.getByRole('button', { name: 'Start job' }).click();
    // The header line is no row: three rows, three credits.
    await page.getByRole('status').filter({ hasText: 'created with 3 rows' }).waitFor();
    assert.equal(await preview.count(), 0, 'the form is cleared for the next file');
    const jobId = (await page.locator('tr[data-job]').first().getAttribute('data-job'))!;
    const final = (await waitForJob(stack.client.withKey(apiKey), jobId)).at(-1)!.body;
    assert.equal(final.status, 'done');
    const lines = (await (await fetch(final.result_url)).text()).trimEnd().split('\n');
    assert.equal(
      lines[0],
      'Name,Work Email,Mobile,Company,valid_syntax,mx_found,disposable,score,deliverability,credits_used,did_you_mean,role_based,free_provider',
    );
    assert.equal(lines.length, 4);
    for (const [i, record] of records.entries())
      assert.ok(lines[i + 1].startsWith(`${record},`), lines[i + 1]);
    assert.match(lines[1], /,jane@gmail\.com,/);
    await page.locator(`tr[data-job="${jobId}"][data-status="done"]`).waitFor();

    // A file larger than the part read: the cost is an estimate from that part.
    const big = Array.from(
      { length: 30_000 },
      (_, i) => `8.${i >> 16}.${(i >> 8) & 255}.${i & 255}`,
    );
    await page.getByLabel('Type').selectOption('ip');
    await page.getByLabel('CSV file').setInputFiles({
      name: 'ips.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`ip\n${big.join('\n')}\n`),
    });
    await page.locator('[data-cost][data-estimate]').waitFor();
    assert.equal(await page.getByLabel('Column to check').count(), 0, 'one column: no choice');
    const estimate = Number(await page.locator('[data-cost]').getAttribute('data-cost'));
    assert.ok(Math.abs(estimate - big.length) <= big.length * 0.05, `estimated ${estimate} rows`);
    assert.match(
      (await page.locator('[data-cost]').textContent())!,
      /^About [\d,]+ rows: about [\d,]+ credits \(1 per row\), estimated from the first 256 KiB of [\d.]+ KiB; the job counts the rows/,
    );
    assert.equal(await page.locator('tr[data-preview-row]').count(), 5);
    await page.screenshot({ path: join(SHOTS, 'batch-upload-estimate.png'), fullPage: true });

    // A multi-column file whose column cannot be guessed: nothing starts until one is chosen.
    await page.getByLabel('CSV file').setInputFiles({
      name: 'notes.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from('a,b\nred,blue\n'),
    });
    await page.getByLabel('Column to check').waitFor();
    assert.equal(await page.getByLabel('Column to check').inputValue(), '');
    const before = await page.locator('tr[data-job]').count();
    await page.getByRole('button', { name: 'Start job' }).click();
    assert.equal(
      await page
        .getByLabel('Column to check')
        .evaluate(
          (el) => (el as unknown as { validity: { valueMissing: boolean } }).validity.valueMissing,
        ),
      true,
    );
    assert.equal(await page.locator('tr[data-job]').count(), before);
    await close();
  });

  it('uploads a phone list with a country column and a country for the rest; every national number is valid', async (t) => {
    if (!ready(t)) return;
    const { page, apiKey, close } = await onBatchPage(1_000, 'country@batch-journey.test');
    await page.getByLabel('Type').selectOption('email');
    assert.equal(await page.getByLabel(/^Country/).count(), 0, 'no country fields for email');
    await page.getByLabel('Type').selectOption('phone');
    const records = ['Ann,07400 123456,', 'Bo,06 12 34 56 78,FR'];
    await page.getByLabel('CSV file').setInputFiles({
      name: 'leads.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(`name,phone,country\n${records.join('\n')}\n`),
    });
    await page.locator('[data-preview]').waitFor();
    await page.getByLabel('Column to check').selectOption('1');
    await page.getByLabel(/^Country \(optional/).fill('gb');
    await page.getByLabel(/^Country column/).fill('country');
    await page.getByRole('button', { name: 'Start job' }).click();
    await page.getByRole('status').filter({ hasText: 'created with 2 rows' }).waitFor();
    const jobId = (await page.locator('tr[data-job]').first().getAttribute('data-job'))!;
    const final = (await waitForJob(stack.client.withKey(apiKey), jobId)).at(-1)!.body;
    assert.equal(final.status, 'done');
    assert.equal(final.country_hint, 'GB');
    assert.equal(final.country_column, 3);
    const lines = (await (await fetch(final.result_url)).text()).trimEnd().split('\n');
    assert.deepEqual(
      lines.slice(1).map((line) => line.split(',')[3]),
      ['true', 'true'],
    );
    await close();
  });

  it('charts a done job’s rows by verdict beside it and downloads only the verdicts ticked, at 1280 and 390 px', async (t) => {
    if (!ready(t)) return;
    const { page, apiKey, close } = await onBatchPage(1_000, 'summary@batch-journey.test');
    const created = await postBatch(
      stack.client,
      apiKey,
      [
        ['type', 'phone'],
        ['file', '+14155552671\nabc\n+442071838750\n12\n000\n'],
      ],
      {},
      'phones.csv',
    );
    assert.equal(created.status, 202);
    const final = (await waitForJob(stack.client.withKey(apiKey), created.body.id)).at(-1)!.body;
    assert.deepEqual(final.summary, { valid: 2, invalid: 3 });
    await page.reload();
    const row = page.locator(`tr[data-job="${final.id}"][data-status="done"]`);
    await row.waitFor();
    // The numbers behind the chart, as text and as the canvas's label.
    assert.deepEqual(await row.locator('.summary-legend li').allTextContents(), [
      '2 valid',
      '3 invalid',
    ]);
    assert.equal(
      await row.getByRole('img').getAttribute('aria-label'),
      'Rows by verdict: 2 valid, 3 invalid',
    );
    await row.getByText('Only some rows…').click();
    await row.getByRole('checkbox', { name: 'invalid' }).check();
    const link = row.getByRole('link', { name: 'Download invalid' });
    const href = (await link.getAttribute('href'))!;
    assert.equal(new URL(href).searchParams.get('only'), 'invalid');
    const kept = (await (await fetch(href)).text()).trimEnd().split('\n');
    assert.deepEqual(
      kept.map((line) => line.split(',')[0]),
      ['input', 'abc', '12', '000'],
    );
    await row.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'batch-summary.png') });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const sideways = await page.evaluate(
        'document.documentElement.scrollWidth - document.documentElement.clientWidth',
      );
      assert.equal(sideways, 0, `no sideways scrolling at ${width} px`);
    }
    await close();
  });
});
