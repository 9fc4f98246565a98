import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { parseAnswers, startTestStack, type TestStack } from '@verity/testing';

/**
 * Sends `head`, then `body` one byte every `gapMs`, until the server closes the connection;
 * what it answered and how long that took.
 */
function trickle(
  baseUrl: string,
  head: string,
  body: string,
  gapMs: number,
): Promise<{ status: number | undefined; code: string | undefined; seconds: number }> {
  const { hostname, port } = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    socket.on('data', (d) => received.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      const [answer] = parseAnswers(Buffer.concat(received).toString('utf8'));
      const parsed = answer ? (JSON.parse(answer.body) as { error?: { code: string } }) : {};
      resolve({
        status: answer?.status,
        code: parsed.error?.code,
        seconds: (performance.now() - started) / 1000,
      });
    });
    socket.on('connect', () => {
      socket.write(head);
      let sent = 0;
      const next = () => {
        if (socket.destroyed || sent >= body.length) return;
        socket.write(body[sent++]);
        timer = setTimeout(next, gapMs);
      };
      next();
    });
  });
}

/** Opens a connection from `localAddress`; resolves once it is open, or closed by the server. */
function open(baseUrl: string, localAddress: string): Promise<{ socket: Socket; closed: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port), localAddress });
    socket.on('error', () => undefined);
    let settled = false;
    const settle = (closed: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ socket, closed });
    };
    // The server closes a connection over the cap at once; one it keeps stays silent.
    socket.on('close', () => settle(true));
    socket.on('connect', () => setTimeout(() => settle(socket.destroyed), 300));
  });
}

describe('slow clients: trickled bodies are cut, connections per address are capped', () => {
  let stack: TestStack;
  let apiKey: string;

  before(async () => {
    stack = await startTestStack({
      env: {
        BODY_TIMEOUT_MS: '2000',
        BODY_IDLE_TIMEOUT_MS: '2000',
        BODY_MIN_BYTES_PER_SECOND: '1000',
        CONNECTIONS_PER_ADDRESS: '5',
      },
    });
    apiKey = (await stack.account(100)).apiKey;
  });
  after(() => stack.close());

  const jsonHead = (path: string, body: string, extra = '') =>
    `POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${body.length}\r\n${extra}\r\n`;

  it('cuts a JSON body trickled a byte at a time with 408, on /v1 and on the console sign-in', async (t) => {
    const validate = '{"email":"jane@example.com","padding":"' + 'x'.repeat(20) + '"}';
    const login = '{"email":"jane@example.com","password":"' + 'x'.repeat(20) + '"}';
    const [v1, console] = await Promise.all([
      trickle(
        stack.client.baseUrl,
        jsonHead('/v1/email/validate', validate, `X-Api-Key: ${apiKey}\r\n`),
        validate,
        300,
      ),
      trickle(
        stack.client.baseUrl,
        jsonHead('/console/api/auth/login', login, `Origin: ${stack.client.baseUrl}\r\n`),
        login,
        300,
      ),
    ]);
    for (const [what, cut] of [
      ['/v1/email/validate', v1],
      ['/console/api/auth/login', console],
    ] as const) {
      assert.equal(cut.status, 408, what);
      assert.equal(cut.code, 'request_timeout', what);
      // Cut before the body could have arrived (its last byte was due at ~18 s).
      assert.ok(cut.seconds < validate.length * 0.3, `${what}: ${cut.seconds}`);
      t.diagnostic(`${what}: trickled body cut after ${cut.seconds.toFixed(1)} s`);
    }
    // The server still answers.
    assert.equal((await stack.client.withKey(apiKey).get('/v1/ping')).status, 200);
  });

  it('cuts an upload that arrives slower than the minimum rate with 408', async (t) => {
    const boundary = 'x-boundary';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="type"\r\n\r\nemail\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${'jane@example.com\n'.repeat(40)}\r\n--${boundary}--\r\n`;
    const head =
      `POST /v1/batch HTTP/1.1\r\nHost: x\r\nX-Api-Key: ${apiKey}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${body.length}\r\n\r\n`;
    // 20 bytes a second: never idle for the idle cut, far below the 1,000 bytes a second asked.
    const cut = await trickle(stack.client.baseUrl, head, body, 50);
    assert.equal(cut.status, 408);
    assert.equal(cut.code, 'request_timeout');
    assert.ok(cut.seconds < body.length * 0.05, String(cut.seconds));
    t.diagnostic(`slow upload cut after ${cut.seconds.toFixed(1)} s`);
  });

  it('closes connections over the cap of one address at once; other addresses are served', async () => {
    const held = await Promise.all(
      Array.from({ length: 5 }, () => open(stack.client.baseUrl, '127.0.0.2')),
    );
    assert.deepEqual(
      held.map((c) => c.closed),
      [false, false, false, false, false],
    );
    const over = await open(stack.client.baseUrl, '127.0.0.2');
    assert.equal(over.closed, true);
    const other = await open(stack.client.baseUrl, '127.0.0.3');
    assert.equal(other.closed, false);
    other.socket.destroy();
    // One closed: the address may open one again.
    held[0].socket.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const again = await open(stack.client.baseUrl, '127.0.0.2');
    assert.equal(again.closed, false);
    for (const c of [...held, again]) c.socket.destroy();
  });
});
