import { connect, type Socket } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

/** One answered request: its status, or an error (connection lost, unparsable answer). */
export type RawAnswer = { status: number } | { error: Error };

/**
 * A keep-alive HTTP/1.1 connection that sends prebuilt requests one at a time and reads
 * answers with a Content-Length (what Fastify sends for JSON). Far lighter than node:http's
 * client, so a paced load generator sharing the machine spends its CPU on sending on time
 * rather than on parsing answers.
 */
class RawConnection {
  private pending: Buffer = Buffer.alloc(0);
  private done: ((answer: RawAnswer) => void) | null = null;

  constructor(private readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.read(chunk));
    socket.on('error', (error) => this.finish({ error }));
    socket.on('close', () => this.finish({ error: new Error('connection closed') }));
  }

  send(request: Buffer, done: (answer: RawAnswer) => void): void {
    this.done = done;
    this.socket.write(request);
  }

  close(): void {
    this.socket.destroy();
  }

  private read(chunk: Buffer): void {
    this.pending = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    const end = this.pending.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.pending.toString('latin1', 0, end);
    const length = CONTENT_LENGTH.exec(head);
    if (!length) return this.finish({ error: new Error(`no content-length: ${head}`) });
    const total = end + HEADER_END.length + Number(length[1]);
    if (this.pending.length < total) return;
    this.pending = this.pending.subarray(total);
    this.finish({ status: Number(head.slice(9, 12)) });
  }

  private finish(answer: RawAnswer): void {
    const done = this.done;
    this.done = null;
    done?.(answer);
  }
}

/** A pool of raw keep-alive connections; a request waits only when all are busy. */
export class RawHttpPool {
  private readonly idle: RawConnection[] = [];
  private readonly all: RawConnection[] = [];
  private readonly waiting: (() => void)[] = [];

  private constructor() {}

  static async open(url: URL, connections: number): Promise<RawHttpPool> {
    const pool = new RawHttpPool();
    for (let i = 0; i < connections; i++) {
      const socket = connect(Number(url.port), url.hostname);
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', resolve);
        socket.once('error', reject);
      });
      const connection = new RawConnection(socket);
      pool.all.push(connection);
      pool.idle.push(connection);
    }
    return pool;
  }

  /** Sends `request`; `written` runs once it has a connection, `done` with the answer. */
  send(request: Buffer, written: () => void, done: (answer: RawAnswer) => void): void {
    const go = () => {
      const connection = this.idle.pop()!;
      written();
      connection.send(request, (answer) => {
        this.idle.push(connection);
        this.waiting.shift()?.();
        done(answer);
      });
    };
    if (this.idle.length > 0) go();
    else this.waiting.push(go);
  }

  close(): void {
    for (const connection of this.all) connection.close();
  }
}

/** A POST with a JSON body as bytes on the wire. */
export function rawPost(url: URL, body: string, headers: Record<string, string>): Buffer {
  const lines = [
    `POST ${url.pathname} HTTP/1.1`,
    `host: ${url.host}`,
    'content-type: application/json',
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
