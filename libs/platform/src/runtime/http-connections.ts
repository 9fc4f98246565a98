import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The open connections of an HTTP server and their requests in flight, so that a shutdown
 * closes every connection without cutting a request short. Node's `server.close()` ends idle
 * kept-alive connections, but counts a connection that has not sent a byte yet (browsers open
 * such spare connections ahead of need) as busy until its headers timeout, so the close would
 * wait for it. {@link closeIdle} destroys every connection with no request in flight, silent
 * ones included; a connection with a request in flight is ended once its last response is sent.
 */
export class HttpConnections {
  /** Requests in flight per open connection (0: idle, or connected and silent). */
  private readonly inFlight = new Map<Socket, number>();
  private closing = false;

  constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.inFlight.set(socket, 0);
      socket.once('close', () => this.inFlight.delete(socket));
    });
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const socket = request.socket;
      const open = this.inFlight.get(socket);
      if (open === undefined) return;
      this.inFlight.set(socket, open + 1);
      response.once('close', () => this.answered(socket));
    });
  }

  /** Destroys the connections with no request in flight; the others end after their response. */
  closeIdle(): void {
    this.closing = true;
    for (const [socket, open] of this.inFlight) if (open === 0) socket.destroy();
  }

  private answered(socket: Socket): void {
    const open = this.inFlight.get(socket);
    if (open === undefined) return;
    this.inFlight.set(socket, open - 1);
    // Ended once the response is flushed, as Node does after a `Connection: close` response.
    if (this.closing && open === 1) socket.end(() => socket.destroy());
  }
}
