import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP server that accepts connections and never answers: a dependency that hangs
 * (a dropped route, a wedged process) rather than refusing, so clients wait on their timeouts.
 */
export class BlackHole {
  private readonly sockets = new Set<Socket>();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<BlackHole> {
    const hole = new BlackHole(createServer());
    hole.server.on('connection', (socket) => {
      hole.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => hole.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => hole.server.listen(0, '127.0.0.1', resolve));
    return hole;
  }

  /** `127.0.0.1:<port>`. */
  get address(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
