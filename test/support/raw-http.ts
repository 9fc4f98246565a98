import { connect } from 'node:net';

/** What came back on a raw socket: status line, headers and the body as text. */
export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes bytes no well-behaved client would send (bad header tokens, huge headers, truncated
 * bodies) and reads until the server closes or `waitMs` passes; fetch refuses to send these.
 */
export async function rawRequest(
  baseUrl: string,
  chunks: (string | Buffer)[],
  opts: { waitMs?: number; gapMs?: number } = {},
): Promise<RawAnswer | null> {
  return parseAnswers(await rawExchange(baseUrl, chunks, opts))[0] ?? null;
}

/** Everything the server wrote back on one connection, until it closed or `waitMs` passed. */
export function rawExchange(
  baseUrl: string,
  chunks: (string | Buffer)[],
  opts: { waitMs?: number; gapMs?: number } = {},
): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) });
    const received: Buffer[] = [];
    const timer = setTimeout(() => socket.destroy(), opts.waitMs ?? 30_000);
    socket.on('data', (d) => received.push(d));
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(received).toString('utf8'));
    });
    socket.on('connect', () => {
      void (async () => {
        for (const chunk of chunks) {
          if (socket.destroyed) return;
          socket.write(chunk);
          if (opts.gapMs) await new Promise((r) => setTimeout(r, opts.gapMs));
        }
      })();
    });
  });
}

/** The HTTP answers in `text`, in order. */
export function parseAnswers(text: string): RawAnswer[] {
  const answers: RawAnswer[] = [];
  let rest = text;
  for (;;) {
    const parsed = parseAnswer(rest);
    if (!parsed) return answers;
    answers.push(parsed.answer);
    rest = parsed.rest;
  }
}

function parseAnswer(text: string): { answer: RawAnswer; rest: string } | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const [statusLine, ...lines] = text.slice(0, end).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(statusLine.split(' ')[1]);
  const after = Buffer.from(text.slice(end + 4));
  const length = headers['content-length'];
  if (length !== undefined) {
    const body = after.subarray(0, Number(length)).toString();
    return { answer: { status, headers, body }, rest: after.subarray(Number(length)).toString() };
  }
  if (headers['transfer-encoding'] === 'chunked') {
    const { body, rest } = unchunk(after.toString());
    return { answer: { status, headers, body }, rest };
  }
  return { answer: { status, headers, body: after.toString() }, rest: '' };
}

function unchunk(text: string): { body: string; rest: string } {
  let body = '';
  let rest = text;
  for (;;) {
    const eol = rest.indexOf('\r\n');
    if (eol < 0) return { body, rest: '' };
    const size = parseInt(rest.slice(0, eol), 16);
    if (!size) return { body, rest: rest.slice(eol + 4) };
    body += rest.slice(eol + 2, eol + 2 + size);
    rest = rest.slice(eol + 2 + size + 2);
  }
}
