import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { launchChromium, startTestStack, type TestStack } from '@verity/testing';

/** A document another site would like /v1/docs to show; it counts who asks for it. */
function evilDocumentServer(): Promise<{ server: Server; url: string; asked: () => number }> {
  let asked = 0;
  const server = createServer((_request, response) => {
    asked++;
    response.writeHead(200, {
      'Content-Type': 'application/json',
      'Access-Control-Allow-Origin': '*',
    });
    response.end(JSON.stringify({ openapi: '3.0.0', info: { title: 'Evil API', version: '1' } }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}/evil.json`, asked: () => asked });
    }),
  );
}

/** /v1/docs (Swagger UI) in headless Chromium: under its CSP, showing only this server's document. */
describe('the API reference page /v1/docs in a browser', () => {
  let stack: TestStack;
  let browser: Browser | undefined;
  let skip: string | undefined;

  before(async () => {
    const launched = await launchChromium();
    if (typeof launched === 'string') skip = launched;
    else browser = launched;
    stack = await startTestStack();
  });
  after(async () => {
    await browser?.close();
    await stack.close();
  });

  it('ignores a ?url= naming another document, and runs under its CSP without a violation', async (t) => {
    if (!browser) return t.skip(skip);
    const evil = await evilDocumentServer();
    try {
      const page = await browser.newPage();
      const violations: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
      });
      const response = await page.goto(
        `${stack.client.baseUrl}/v1/docs?url=${encodeURIComponent(evil.url)}`,
      );
      const csp = response?.headers()['content-security-policy'] ?? '';
      assert.match(csp, /default-src 'none'/);
      assert.match(csp, /script-src 'self'/);
      assert.match(csp, /frame-ancestors 'none'/);
      const title = page.locator('.info .title');
      await title.waitFor({ timeout: 30_000 });
      assert.match(await title.innerText(), /Verity API/);
      // The operations of this server are listed: the page really works under the policy.
      await page.locator('.opblock-summary-path').first().waitFor({ timeout: 10_000 });
      assert.ok((await page.locator('.opblock').count()) > 10);
      assert.equal(evil.asked(), 0);
      assert.deepEqual(violations, []);
    } finally {
      evil.server.close();
    }
  });

  it('serves an init script that never reads the page address', async () => {
    const script = await (await fetch(`${stack.client.baseUrl}/v1/docs/swagger-ui-init.js`)).text();
    assert.match(script, /"title": "Verity API"/);
    assert.doesNotMatch(script, /location\.search/);
  });

  it('serves every file under /v1/docs with the CSP', async () => {
    for (const path of [
      '/v1/docs',
      '/v1/docs/swagger-ui-init.js',
      '/v1/docs/swagger-ui-bundle.js',
      '/v1/docs/oauth2-redirect.html',
    ]) {
      const res = await fetch(`${stack.client.baseUrl}${path}`);
      assert.equal(res.status, 200, path);
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/, path);
      await res.arrayBuffer();
    }
  });
});
