import { connect, createServer, isIPv4, type Server, type Socket } from 'node:net';

/** Options of the loopback proxy. */
export interface Socks5ServerOptions {
  /** Require RFC 1929 username/password; absent: "no authentication" only. */
  credentials?: { username: string; password: string };
  /** Accept CONNECT requests but never answer them (what a proxy cut off from port 25 does). */
  silent?: boolean;
}

/**
 * A SOCKS5 proxy on 127.0.0.1 (RFC 1928 CONNECT to an IPv4 address, RFC 1929 authentication),
 * for the SMTP probe's proxy tests. It only connects to loopback addresses, and records every
 * destination it was asked for.
 */
export class Socks5Server {
  /** `ip:port` of every CONNECT it relayed. */
  readonly connects: string[] = [];
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: Socks5ServerOptions = {}) {}

  async start(): Promise<{ host: string; port: number }> {
    const server = createServer((client) => this.serve(client));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.server = server;
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    return { host: '127.0.0.1', port: address.port };
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }

  private serve(client: Socket): void {
    this.sockets.add(client);
    client.once('close', () => this.sockets.delete(client));
    client.on('error', () => client.destroy());
    let buffer = Buffer.alloc(0);
    let stage: 'greeting' | 'auth' | 'request' | 'relay' = 'greeting';
    const onData = (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        const used = this.step(client, stage, buffer, (next) => (stage = next));
        if (used === 0) return;
        buffer = buffer.subarray(used);
        if (stage === 'relay') {
          // Nothing more is read until the upstream is connected and piped.
          client.removeListener('data', onData);
          client.pause();
          return;
        }
      }
    };
    client.on('data', onData);
  }

  /** Handles one message of the handshake; returns the bytes it used (0: wait for more). */
  private step(
    client: Socket,
    stage: 'greeting' | 'auth' | 'request' | 'relay',
    buf: Buffer,
    next: (stage: 'auth' | 'request' | 'relay') => void,
  ): number {
    if (stage === 'greeting') {
      if (buf.length < 2 || buf.length < 2 + buf[1]) return 0;
      const methods = [...buf.subarray(2, 2 + buf[1])];
      const wanted = this.options.credentials ? 0x02 : 0x00;
      if (buf[0] !== 0x05 || !methods.includes(wanted)) {
        client.end(Buffer.from([0x05, 0xff]));
        return 0;
      }
      client.write(Buffer.from([0x05, wanted]));
      next(wanted === 0x02 ? 'auth' : 'request');
      return 2 + buf[1];
    }
    if (stage === 'auth') {
      if (buf.length < 2) return 0;
      const ulen = buf[1];
      if (buf.length < 3 + ulen || buf.length < 3 + ulen + buf[2 + ulen]) return 0;
      const plen = buf[2 + ulen];
      const username = buf.toString('utf8', 2, 2 + ulen);
      const password = buf.toString('utf8', 3 + ulen, 3 + ulen + plen);
      const ok =
        username === this.options.credentials?.username &&
        password === this.options.credentials?.password;
      client.write(Buffer.from([0x01, ok ? 0x00 : 0x01]));
      if (!ok) {
        client.end();
        return 0;
      }
      next('request');
      return 3 + ulen + plen;
    }
    // CONNECT to an IPv4 address: VER CMD RSV ATYP(1) ADDR(4) PORT(2).
    if (buf.length < 10) return 0;
    const ip = [...buf.subarray(4, 8)].join('.');
    const port = buf.readUInt16BE(8);
    if (buf[1] !== 0x01 || buf[3] !== 0x01 || !isIPv4(ip) || !ip.startsWith('127.')) {
      client.end(Buffer.from([0x05, 0x02, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
      return 0;
    }
    this.connects.push(`${ip}:${port}`);
    next('relay');
    if (this.options.silent) return 10;
    const upstream = connect({ host: ip, port });
    this.sockets.add(upstream);
    upstream.once('close', () => {
      this.sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => {
      client.end(Buffer.from([0x05, 0x05, 0x00, 0x01, 0, 0, 0, 0, 0, 0]));
    });
    upstream.once('connect', () => {
      client.write(Buffer.from([0x05, 0x00, 0x00, 0x01, 127, 0, 0, 1, 0, 0]));
      const rest = buf.subarray(10);
      if (rest.length > 0) upstream.write(rest);
      client.pipe(upstream);
      upstream.pipe(client);
      client.once('close', () => upstream.destroy());
    });
    return 10;
  }
}
