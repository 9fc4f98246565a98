import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ServiceUnavailableError, Verity } from './index';

/**
 * A loopback HTTP server that answers every request with `answer`, then (once `failures`
 * requests have been refused) 200 with a ping body; it counts the requests.
 */
async function server(failures: number, answer: (res: ServerResponse) => void) {
  let requests = 0;
  const http = createServer((_req, res) => {
    requests++;
    if (requests <= failures) return answer(res);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ account: { id: 'a', name: 'x' }, credits_remaining: 1 }));
  });
  await new Promise<void>((done) => http.listen(0, '127.0.0.1', done));
  const { port } = http.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests: () => requests,
    close: () => new Promise<void>((done) => http.close(() => done())),
  };
}

function unavailable(headers: Record<string, string>) {
  return (res: ServerResponse) => {
    res.writeHead(503, { 'content-type': 'application/json', ...headers });
    res.end(
      JSON.stringify({ error: { code: 'service_unavailable', message: 'down', request_id: 'r' } }),
    );
  };
}

describe('client retries of 503 service_unavailable', () => {
  const waits: number[] = [];
  const client = (baseUrl: string) =>
    new Verity({
      apiKey: 'vrt_live_x',
      baseUrl,
      sleep: (ms) => {
        waits.push(ms);
        return Promise.resolve();
      },
    });

  it('retries a 503 that carries Retry-After, waiting as long as it says', async () => {
    waits.length = 0;
    const http = await server(2, unavailable({ 'retry-after': '3' }));
    try {
      assert.equal((await client(http.baseUrl).ping()).credits_remaining, 1);
      assert.equal(http.requests(), 3);
      assert.deepEqual(waits, [3_000, 3_000]);
    } finally {
      await http.close();
    }
  });

  it('throws a 503 without Retry-After at once: the server named no time to come back', async () => {
    waits.length = 0;
    const http = await server(1, unavailable({}));
    try {
      await assert.rejects(client(http.baseUrl).ping(), (error: unknown) => {
        assert.ok(error instanceof ServiceUnavailableError);
        assert.equal(error.retryAfterSeconds, null);
        return true;
      });
      assert.equal(http.requests(), 1);
      assert.deepEqual(waits, []);
    } finally {
      await http.close();
    }
  });
});
