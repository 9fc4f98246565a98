import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import {
  parseAnswers,
  rawExchange,
  rawRequest,
  startTestStack,
  type TestStack,
} from '@verity/testing';

const BOUNDARY = 'verityboundary1234';

/** One form field of a multipart body, with its closing CRLF. */
function field(name: string, value: string, boundary = BOUNDARY): string {
  return `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
}

/** One file part of a multipart body, with its closing CRLF. */
function filePart(name: string, csv: string, boundary = BOUNDARY): string {
  return (
    `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="in.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n`
  );
}

/** A well-formed multipart body (type=email, file=<csv>) with CRLF line ends. */
function multipart(csv: string, boundary = BOUNDARY, eol = '\r\n'): string {
  return [
    `--${boundary}`,
    'Content-Disposition: form-data; name="type"',
    '',
    'email',
    `--${boundary}`,
    'Content-Disposition: form-data; name="file"; filename="in.csv"',
    'Content-Type: text/csv',
    '',
    csv,
    `--${boundary}--`,
    '',
  ].join(eol);
}

describe('POST /v1/batch refuses malformed multipart bodies, leaving nothing behind', () => {
  let stack: TestStack;
  let apiKey: string;
  const partialDir = () => join(stack.config.VERITY_HOME, 'blobs', '.partial');
  /** Uploads of accepted jobs stay (no worker runs here); nothing else may appear. */
  const accepted = new Set<string>();
  const uploads = () =>
    readdir(join(stack.config.VERITY_HOME, 'blobs', 'uploads'), { recursive: true }).catch(
      () => [] as string[],
    );
  const leftovers = async () => {
    const partial = await readdir(partialDir()).catch(() => []);
    return [...partial, ...(await uploads()).filter((f) => !accepted.has(f))];
  };

  before(async () => {
    stack = await startTestStack({ env: { BODY_IDLE_TIMEOUT_MS: '1500' } });
    apiKey = (await stack.account(100)).apiKey;
  });
  after(() => stack.close());

  /** Sends `body` raw with the given content headers; the answer must come on its own. */
  const send = (body: string | Buffer, headers: Record<string, string>) => {
    const head = Object.entries({
      host: 'x',
      'x-api-key': apiKey,
      'content-length': String(Buffer.byteLength(body)),
      ...headers,
    })
      .map(([k, v]) => `${k}: ${v}`)
      .join('\r\n');
    return rawRequest(stack.client.baseUrl, [`POST /v1/batch HTTP/1.1\r\n${head}\r\n\r\n`, body], {
      waitMs: 20_000,
    });
  };

  const expectRefused = async (
    what: string,
    body: string | Buffer,
    headers: Record<string, string>,
    status = 400,
    code = 'validation_error',
  ) => {
    const answer = await send(body, { connection: 'close', ...headers });
    assert.ok(answer, `${what}: no answer`);
    assert.equal(answer.status, status, `${what}: ${answer.body}`);
    const parsed = JSON.parse(answer.body) as { error: { code: string; message: string } };
    assert.deepEqual(Object.keys(parsed), ['error'], what);
    assert.equal(parsed.error.code, code, what);
    assert.deepEqual(await leftovers(), [], `${what}: files left behind`);
  };

  const form = `multipart/form-data; boundary=${BOUNDARY}`;

  it('accepts the well-formed body these cases are cut from', async () => {
    const answer = await send(multipart('a@example.com'), {
      'content-type': form,
      connection: 'close',
    });
    assert.equal(answer?.status, 202, answer?.body);
    for (const f of await uploads()) accepted.add(f);
  });

  it('a body without its closing boundary is 400, not left hanging', async () => {
    const body = multipart('a@example.com').replace(`--${BOUNDARY}--\r\n`, '');
    await expectRefused('no closing boundary', body, { 'content-type': form });
  });

  it('no boundary parameter, a mismatched boundary, LF-only line ends are 400', async () => {
    const body = multipart('a@example.com');
    await expectRefused('no boundary', body, { 'content-type': 'multipart/form-data' });
    await expectRefused('mismatched boundary', body, {
      'content-type': 'multipart/form-data; boundary=somethingelse',
    });
    await expectRefused('LF only', multipart('a@example.com', BOUNDARY, '\n'), {
      'content-type': form,
    });
  });

  it('a body cut inside part headers is 400', async () => {
    const body = multipart('a@example.com');
    const cut = body.slice(0, body.indexOf('filename=') + 4);
    await expectRefused('cut in headers', cut, { 'content-type': form });
  });

  it("the parser's limits and unexpected parts are 400, each message saying what to send", async () => {
    const end = `--${BOUNDARY}--\r\n`;
    const cases: [string, string, RegExp][] = [
      [
        'two files',
        field('type', 'email') +
          filePart('file', 'a@example.com') +
          filePart('file', 'b@x.io') +
          end,
        /send exactly one file/,
      ],
      [
        'nine fields',
        Array.from({ length: 9 }, (_, i) => field(`f${i}`, 'x')).join('') + end,
        /too many fields/,
      ],
      [
        'eleven parts',
        Array.from({ length: 11 }, (_, i) => field(`type${i}`, 'x')).join('') + end,
        /too many (parts|fields)/,
      ],
      [
        'a field over 4 KiB',
        field('webhook_url', `https://example.com/${'a'.repeat(5000)}`) + end,
        /field webhook_url is too long/,
      ],
      [
        'the file under another name',
        field('type', 'email') + filePart('data', 'a@example.com') + end,
        /unexpected file field "data"; send the CSV as "file"/,
      ],
      ['no file', field('type', 'email') + end, /file is required/],
      ['no part at all', end, /type is required/],
    ];
    for (const [what, body, message] of cases) {
      const answer = await send(body, { 'content-type': form, connection: 'close' });
      assert.equal(answer?.status, 400, `${what}: ${answer?.body}`);
      assert.match(JSON.parse(answer.body).error.message, message, what);
    }
    assert.deepEqual(await leftovers(), []);
  });

  it('an upload refused mid-body leaves its connection usable for the next request', async () => {
    // The refusal comes with the part's headers; the 650 KB after them are still on the way.
    const body =
      field('type', 'email') +
      filePart('data', 'a@example.com\n'.repeat(50_000)) +
      `--${BOUNDARY}--\r\n`;
    const upload =
      `POST /v1/batch HTTP/1.1\r\nhost: x\r\nx-api-key: ${apiKey}\r\n` +
      `content-type: ${form}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    const ping = `GET /v1/ping HTTP/1.1\r\nhost: x\r\nx-api-key: ${apiKey}\r\nconnection: close\r\n\r\n`;
    const answers = parseAnswers(
      await rawExchange(stack.client.baseUrl, [upload, ping], { waitMs: 20_000, gapMs: 200 }),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      [400, 200],
      answers.map((a) => a.body).join('\n'),
    );
  });

  it('a compressed body is 400', async () => {
    await expectRefused('gzip', gzipSync(multipart('a@example.com')), {
      'content-type': form,
      'content-encoding': 'gzip',
    });
  });

  it('a body that stops arriving is cut after BODY_IDLE_TIMEOUT_MS with 408', async () => {
    const body = multipart('a@example.com\nb@example.com\n');
    const head =
      `POST /v1/batch HTTP/1.1\r\nhost: x\r\nx-api-key: ${apiKey}\r\n` +
      `content-type: ${form}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n`;
    const answer = await rawRequest(stack.client.baseUrl, [head + body.slice(0, 150)], {
      waitMs: 20_000,
    });
    assert.ok(answer, 'no answer');
    assert.equal(answer.status, 408, answer.body);
    assert.equal(JSON.parse(answer.body).error.code, 'request_timeout');
    assert.deepEqual(await leftovers(), []);
  });

  it('charged nothing for any refused body', async () => {
    const ping = await stack.client.withKey(apiKey).get('/v1/ping');
    assert.equal(ping.body.credits_remaining, 99); // only the accepted one-row job
  });
});
