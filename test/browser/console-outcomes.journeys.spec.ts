// The console's Outcomes page in Chromium: an account's verify traffic and reported outcomes
// (a simulated sign-up stream through the API), the figures the page shows against the API's
// own statistics, the reliability chart, and reporting an outcome from the page.
import { after, before, describe, it, type TestContext } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { FeedbackStats } from '@verity/contracts';
import {
  ADMIN_TOKEN,
  SIMULATION_OPTIONS,
  freePort,
  launchChromium,
  runSignupSimulation,
  signupStream,
  startTestStack,
  waitFor,
  type TestClient,
  type TestStack,
} from '@verity/testing';
import { simulationPorts } from '../e2e/history-helpers';

/** CONSOLE_SCREENSHOTS=docs/console refreshes the committed screenshot. */
const SHOTS = process.env.CONSOLE_SCREENSHOTS ?? join('test-results', 'console');
const PASSWORD = 'a long dev password';

describe('console Outcomes page in Chromium', () => {
  let stack: TestStack;
  let browser: Browser | null = null;
  let skipReason: string | null = null;
  let page: Page;
  let base: string;
  let api: TestClient;
  let link: string;

  const ready = (t: TestContext): boolean => {
    if (skipReason) t.skip(skipReason);
    return skipReason === null;
  };
  const text = async (selector: string) => (await page.locator(selector).textContent())!.trim();

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
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
      },
    });
    // An account with a console user, as the operator API creates one: its key and sign-in link.
    const created = await stack.client.post(
      '/admin/accounts',
      { name: 'outcomes', credits: 100_000, owner_email: 'owner@outcomes.test' },
      { authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    assert.equal(created.status, 201, JSON.stringify(created.body));
    api = stack.client.withKey(created.body.api_key as string);
    link = created.body.sign_in_url as string;
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    mkdirSync(SHOTS, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  it('says what to do while no outcome is reported', async (t) => {
    if (!ready(t)) return;
    await page.goto(link);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Repeat the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save password and continue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
    await page.getByRole('link', { name: 'Outcomes' }).click();
    await page.getByRole('heading', { level: 1, name: 'Outcomes' }).waitFor();
    assert.match(await text('.empty'), /has a reported outcome yet.*POST \/v1\/feedback/s);
  });

  it('shows the labelled calls, AUC, the reliability chart and the tables as the API counts them', async (t) => {
    if (!ready(t)) return;
    const result = await runSignupSimulation(signupStream(7), simulationPorts(api), {
      ...SIMULATION_OPTIONS,
      learnShare: 1,
      reportShare: 0.4,
    });
    let stats: FeedbackStats | undefined;
    await waitFor('every reported call in the statistics', async () => {
      stats = (await api.get('/v1/feedback/stats')).body as FeedbackStats;
      return stats.labelled_calls === result.reported;
    });
    await page.reload();
    await page.locator('[data-labelled]').waitFor();
    assert.equal(await text('[data-labelled]'), stats!.labelled_calls.toLocaleString('en-US'));
    assert.equal(await text('[data-fraud]'), String(stats!.fraud));
    assert.equal(await text('[data-auc]'), stats!.auc!.toFixed(3));
    assert.ok(stats!.auc! >= 0.9, `AUC ${stats!.auc}`);
    assert.equal(await page.locator('[data-few-labels]').count(), stats!.enough_labels ? 0 : 1);
    // The chart is labelled for screen readers and its numbers are in the table.
    const chart = page.getByRole('img', {
      name: /Fraud rate of the labelled calls by fraud_score band/,
    });
    await chart.waitFor();
    await page.getByText('Numbers behind the chart').click();
    for (const band of stats!.reliability) {
      const row = page.locator(`[data-reliability-table] tr[data-band="${band.min_score}"]`);
      assert.equal(
        (await row.locator('td').first().textContent())!.trim(),
        String(band.calls),
        `band ${band.min_score}`,
      );
    }
    const high = page.locator('[data-risk-table] tr[data-risk="high"] td');
    assert.equal((await high.first().textContent())!.trim(), String(stats!.risk_levels[2].calls));
    const velocity = page.locator('[data-reasons-table] tr[data-reason="ip_velocity_1h"]');
    assert.equal(await velocity.count(), 1);
    // Hover the top of the score range: the tooltip gives that band's figures.
    const box = (await chart.boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.93, box.y + box.height * 0.3);
    await page.screenshot({ path: join(SHOTS, 'outcomes.png'), fullPage: true });
  });

  it('records an outcome from the page, and names the field it cannot use', async (t) => {
    if (!ready(t)) return;
    const call = await api.post('/v1/verify', { email: 'console@example.com', ip: '86.150.9.9' });
    await page.getByLabel('request_id of the verify answer').fill(call.body.request_id);
    await page.getByRole('radio', { name: 'Legitimate' }).check();
    await page.getByRole('button', { name: 'Record outcome' }).click();
    const notice = page.getByRole('status').filter({ hasText: 'Recorded as legitimate' });
    await notice.waitFor();
    assert.match(
      (await notice.textContent())!,
      /for call [0-9a-f-]{36}: later scores of the same email, IP address, its \/24 fall\./,
    );
    await page.getByRole('radio', { name: 'Email, phone or IP' }).check();
    await page.getByLabel('IP address').fill('not-an-ip');
    await page.getByRole('radio', { name: 'Fraud' }).check();
    await page.getByRole('button', { name: 'Record outcome' }).click();
    await page.getByRole('alert').waitFor();
    assert.equal(await text('[role=alert]'), 'Ip must be an IPv4 or IPv6 address.');
  });

  it('renders at 390 px without horizontal scrolling', async (t) => {
    if (!ready(t)) return;
    await page.setViewportSize({ width: 390, height: 900 });
    await page.reload();
    await page.locator('[data-labelled]').waitFor();
    const overflow = await page.evaluate<number>(
      'document.documentElement.scrollWidth - document.documentElement.clientWidth',
    );
    assert.ok(overflow <= 0, `scrolls sideways by ${overflow}px`);
    await page.screenshot({ path: join(SHOTS, 'outcomes-390.png'), fullPage: true });
  });
});
