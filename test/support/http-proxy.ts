import {
  Agent,
  createServer,
  request,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a {@link startHttpProxy} tells its owner about each request it forwards. */
export interface HttpProxyHooks {
  /** A request arrived (before its body). */
  onRequest?(req: IncomingMessage): void;
  /** A piece of a request body went up. */
  onRequestData?(bytes: number): void;
  /** A piece of a response body came back. */
  onResponseData?(bytes: number): void;
  /** Answers a request itself instead of forwarding it (returns true when it did): faults. */
  answer?(req: IncomingMessage, res: ServerResponse): boolean;
}

export interface HttpProxy {
  /** http://127.0.0.1:<port>: give it to the client instead of the upstream. */
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy to `upstream` (an http:// origin) that forwards every request
 * unchanged, headers included (so SigV4 signatures over the proxy's host still verify), and
 * reports what passed through it. For benchmarks and tests that watch a client on the wire
 * without a hook in its code.
 */
export async function startHttpProxy(
  upstream: string,
  hooks: HttpProxyHooks = {},
): Promise<HttpProxy> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const server: Server = createServer((req, res) => {
    hooks.onRequest?.(req);
    if (hooks.answer?.(req, res)) {
      req.resume();
      return;
    }
    const up = request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path: req.url,
        headers: req.headers,
        agent,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        if (hooks.onResponseData)
          answer.on('data', (piece: Buffer) => hooks.onResponseData!(piece.length));
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    if (hooks.onRequestData) req.on('data', (piece: Buffer) => hooks.onRequestData!(piece.length));
    req.pipe(up);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
