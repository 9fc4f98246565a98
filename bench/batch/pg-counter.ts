// A counting TCP proxy in front of PostgreSQL: the benchmark's processes connect through it
// (DATABASE_URL), and it counts the statements they send by reading the frontend side of the
// wire protocol: each simple Query ('Q') and each Execute ('E') of the extended protocol is
// one statement. Bytes are forwarded untouched; no hook in production code.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** Reads frontend messages off a client's byte stream and counts the statements. */
class StatementReader {
  private startup = true;
  private header = Buffer.alloc(5);
  private have = 0;
  private skip = 0;

  constructor(private readonly onStatement: () => void) {}

  feed(data: Buffer): void {
    let i = 0;
    while (i < data.length) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, data.length - i);
        this.skip -= n;
        i += n;
        continue;
      }
      // Startup-phase messages have no type byte: a 4-byte length, then the body.
      const size = this.startup ? 4 : 5;
      const n = Math.min(size - this.have, data.length - i);
      data.copy(this.header, this.have, i, i + n);
      this.have += n;
      i += n;
      if (this.have < size) continue;
      this.have = 0;
      const length = this.header.readInt32BE(size - 4);
      this.skip = length - 4;
      if (this.startup) {
        // SSLRequest / GSSENCRequest (8 bytes) are followed by another startup message.
        if (length !== 8) this.startup = false;
      } else if (this.header[0] === 0x51 || this.header[0] === 0x45) {
        this.onStatement(); // 'Q' or 'E'
      }
    }
  }
}

export interface PgCounter {
  /** `url` with host and port pointing at the proxy. */
  url: string;
  statements(): number;
  close(): Promise<void>;
}

/** Starts the proxy to the server of `url` on a free loopback port. */
export async function startPgCounter(url: string): Promise<PgCounter> {
  const target = new URL(url);
  let statements = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    const reader = new StatementReader(() => statements++);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.on('data', (data: Buffer) => reader.feed(data));
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    statements: () => statements,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
