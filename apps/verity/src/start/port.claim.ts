import { createServer, type Server, type Socket } from 'node:net';
import { listenError } from '@verity/platform';

/**
 * How many connections made while the service starts are kept for the real server; more are
 * closed at once (the client sees the connection refused and retries, as it would before a
 * listen).
 */
export const HELD_CONNECTIONS_MAX = 256;

/** A port held by this process until the server takes it over. */
export interface PortClaim {
  port: number;
  /** Stops accepting on the port (at once: held connections never delay it); call right before the real listen. */
  release(): Promise<void>;
  /**
   * Gives the connections accepted while starting to `server`, now listening on the port,
   * which answers them as if they had just arrived; with null (a failed start) closes them.
   */
  handOver(server: Server | null): void;
}

/**
 * Fails fast, before the database starts, when HOST:PORT cannot be listened on, and holds the
 * port until {@link PortClaim.release}: PORT itself, or for PORT=0 a free port the kernel picks
 * now, so that every address derived from it (the console's, its sign-in link) is known before
 * the start. Holding it keeps the kernel from handing the same number to an outgoing
 * connection (the database pool's, another program's) while the service starts.
 *
 * A client that connects meanwhile (a health poller, a console tab reloading) is accepted but
 * not read (`pauseOnConnect`): its bytes wait in the kernel until {@link PortClaim.handOver}
 * passes the socket to the HTTP server, so its request is answered once the service listens,
 * and it never holds the start back. The real listen maps its own failure the same way
 * ({@link listenError}).
 */
export async function claimPort(host: string, port: number): Promise<PortClaim> {
  const held = new Set<Socket>();
  const probe = createServer({ pauseOnConnect: true }, (socket) => {
    if (held.size >= HELD_CONNECTIONS_MAX) return void socket.destroy();
    held.add(socket);
    socket.on('error', () => socket.destroy());
    socket.once('close', () => held.delete(socket));
  });
  const chosen = await new Promise<number>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen({ host, port, exclusive: true }, () => {
      const address = probe.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  }).catch((error: unknown) => {
    throw listenError(host, port, error) ?? error;
  });
  // A held probe never keeps the process alive on its own (a failed start still exits).
  probe.unref();
  return {
    port: chosen,
    release: async () => {
      // close() shuts the listening socket now; its callback would wait for the held
      // connections, which only the real server ends, so it is not awaited.
      if (probe.listening) probe.close();
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    handOver: (server) => {
      for (const socket of held) {
        held.delete(socket);
        socket.removeAllListeners('error');
        socket.removeAllListeners('close');
        if (server === null || socket.destroyed) {
          socket.destroy();
          continue;
        }
        server.emit('connection', socket);
        socket.resume();
      }
    },
  };
}
