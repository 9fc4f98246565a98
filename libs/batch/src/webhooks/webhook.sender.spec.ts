import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyWebhook } from '@verity/contracts';
import { deliverWebhook, WebhookDeliveryError, type WebhookResolver } from './webhook.sender';

const SECRET = 'whsec-test-0123456789';
const BODY = JSON.stringify({ id: 'job_1', status: 'done', result_url: null });

interface Received {
  path: string;
  host: string;
  signature: string;
  contentType: string;
  body: string;
}

// One local server; the path decides how it answers. Only 127.0.0.1 is ever contacted.
let server: http.Server;
let port = 0;
const received: Received[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        host: req.headers.host ?? '',
        signature: String(req.headers['verity-signature'] ?? ''),
        contentType: String(req.headers['content-type'] ?? ''),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      const path = req.url ?? '';
      if (path.startsWith('/status/')) {
        res.writeHead(Number(path.slice('/status/'.length))).end();
      } else if (path === '/redirect') {
        res.writeHead(302, { Location: `http://127.0.0.1:${port}/ok` }).end();
      } else if (path === '/hang') {
        // Never answers; the client's timeout must fire.
      } else {
        res.writeHead(204).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const local = { secret: SECRET, timeoutMs: 2_000, allowPrivate: true, now: () => 1_750_000_000 };

async function failure(promise: Promise<unknown>): Promise<WebhookDeliveryError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof WebhookDeliveryError, String(err));
    return err;
  }
  assert.fail('delivery should have failed');
}

describe('deliverWebhook', () => {
  it('POSTs the JSON body with a signature the receiver can verify', async () => {
    const before = received.length;
    const result = await deliverWebhook(`http://127.0.0.1:${port}/ok?x=1`, BODY, local);
    assert.deepEqual(result, { status: 204, address: '127.0.0.1' });
    const got = received[before];
    assert.equal(got.path, '/ok?x=1');
    assert.equal(got.body, BODY);
    assert.equal(got.contentType, 'application/json');
    assert.equal(verifyWebhook(got.signature, got.body, SECRET, 300, 1_750_000_010), 'ok');
    assert.equal(
      verifyWebhook(got.signature, got.body, 'wrong-secret-000000', 300, 1_750_000_010),
      'invalid',
    );
  });

  it('connects to the vetted address, resolving the name once', async () => {
    let calls = 0;
    const resolver: WebhookResolver = (hostname) => {
      calls++;
      assert.equal(hostname, 'hooks.customer.test');
      return Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    };
    const before = received.length;
    const result = await deliverWebhook(`http://hooks.customer.test:${port}/ok`, BODY, {
      ...local,
      resolver,
    });
    assert.equal(result.status, 204);
    assert.equal(calls, 1);
    assert.equal(received[before].host, `hooks.customer.test:${port}`);
  });

  it('fails retryably on a non-2xx answer, without following redirects', async () => {
    for (const status of [500, 503, 429, 404, 400]) {
      const err = await failure(
        deliverWebhook(`http://127.0.0.1:${port}/status/${status}`, BODY, local),
      );
      assert.equal(err.reason, 'http_status');
      assert.equal(err.status, status);
      assert.equal(err.retryable, true);
    }
    const before = received.length;
    const err = await failure(deliverWebhook(`http://127.0.0.1:${port}/redirect`, BODY, local));
    assert.equal(err.status, 302);
    assert.equal(received.length, before + 1, 'the redirect target was not requested');
  });

  it('times out retryably when the receiver does not answer', async () => {
    const err = await failure(
      deliverWebhook(`http://127.0.0.1:${port}/hang`, BODY, { ...local, timeoutMs: 150 }),
    );
    assert.equal(err.reason, 'timeout');
    assert.equal(err.retryable, true);
  });

  it('fails retryably on a refused connection and a resolver failure', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const network = await failure(deliverWebhook(`http://127.0.0.1:${closedPort}/`, BODY, local));
    assert.equal(network.reason, 'network');
    assert.equal(network.retryable, true);

    const nxdomain: WebhookResolver = () => Promise.reject(new Error('ENOTFOUND'));
    const dns = await failure(
      deliverWebhook('http://nowhere.test/', BODY, { ...local, resolver: nxdomain }),
    );
    assert.equal(dns.reason, 'dns');
    assert.equal(dns.retryable, true);
  });

  it('refuses private targets when they are not allowed, without connecting', async () => {
    const strict = { ...local, allowPrivate: false };
    const before = received.length;
    for (const url of [
      `http://127.0.0.1:${port}/ok`,
      `http://[::ffff:127.0.0.1]:${port}/ok`,
      'http://169.254.169.254/latest/meta-data/',
      'http://10.0.0.8/',
    ]) {
      const err = await failure(deliverWebhook(url, BODY, strict));
      assert.equal(err.reason, 'forbidden_target', url);
      assert.equal(err.retryable, false);
      assert.match(err.message, /WEBHOOK_ALLOW_PRIVATE=true/);
    }
    const fake =
      (addresses: string[]): WebhookResolver =>
      () =>
        Promise.resolve(
          addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
        );
    for (const addresses of [
      ['127.0.0.1'],
      ['10.1.1.1'],
      ['100.64.0.1'],
      ['fe80::1'],
      ['93.184.215.14', '192.168.0.2'],
    ]) {
      const err = await failure(
        deliverWebhook(`http://rebind.test:${port}/ok`, BODY, {
          ...strict,
          resolver: fake(addresses),
        }),
      );
      assert.equal(err.reason, 'forbidden_target', addresses.join(','));
      assert.match(err.message, /resolves to a .* address: .*WEBHOOK_ALLOW_PRIVATE=true/);
    }
    assert.equal(received.length, before, 'no request reached the server');
  });

  it('refuses malformed URLs and credentials without retrying', async () => {
    for (const url of ['ftp://127.0.0.1/', 'http://u:p@127.0.0.1/', 'nope']) {
      const err = await failure(deliverWebhook(url, BODY, local));
      assert.equal(err.reason, 'invalid_url', url);
      assert.equal(err.retryable, false);
    }
  });
});
