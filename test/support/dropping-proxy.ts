import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy that can lose an answer: once armed, the first response bytes coming
 * back from the server are swallowed and both sockets are destroyed. The request has then
 * reached the server and been handled, but the client sees a broken connection: the case a
 * retry must survive without doing the work twice.
 */
export class DroppingProxy {
  private armed = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  /** How many answers were dropped so far. */
  dropped = 0;

  private constructor(private readonly target: URL) {
    this.server = createServer((client) => this.pipe(client));
  }

  static async start(target: string): Promise<DroppingProxy> {
    const proxy = new DroppingProxy(new URL(target));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Drop the next `count` answers. */
  dropNext(count = 1): void {
    this.armed += count;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private pipe(client: Socket): void {
    const upstream = connect(Number(this.target.port), this.target.hostname);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => undefined);
    }
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (this.armed > 0) {
        this.armed--;
        this.dropped++;
        client.destroy();
        upstream.destroy();
        return;
      }
      client.write(chunk);
    });
    upstream.on('end', () => client.end());
    client.on('close', () => upstream.destroy());
  }
}
