import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy whose connections a test can cut with a TCP reset: a server or the
 * network lost under its clients mid-conversation (they read ECONNRESET, not a clean end).
 */
export class ResetProxy {
  private readonly clients = new Set<Socket>();
  private readonly server: Server;

  private constructor(targetPort: number) {
    this.server = createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      this.clients.add(client);
      for (const socket of [client, upstream]) socket.on('error', () => undefined);
      client.on('close', () => {
        this.clients.delete(client);
        upstream.destroy();
      });
      upstream.on('close', () => client.destroy());
      client.pipe(upstream).pipe(client);
    });
  }

  static async start(targetPort: number): Promise<ResetProxy> {
    const proxy = new ResetProxy(targetPort);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** Resets every open connection. */
  resetAll(): void {
    for (const client of this.clients) client.resetAndDestroy();
  }

  async close(): Promise<void> {
    this.resetAll();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
