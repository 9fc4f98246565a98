// A counting HTTP proxy in front of the S3 endpoint: the benchmark's processes use it as their
// S3_ENDPOINT, so every S3 request they make, and its body bytes both ways, is counted here
// without any hook in production code. Path-style requests pass unchanged (headers included,
// so SigV4 signatures over the proxy's host still verify).
import { Agent, createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What went through the proxy so far. */
export interface S3Counts {
  requests: number;
  /** Request body bytes (uploads). */
  bytesIn: number;
  /** Response body bytes (downloads). */
  bytesOut: number;
}

export interface S3Counter {
  /** The endpoint to give the processes (http://127.0.0.1:<port>). */
  endpoint: string;
  counts(): S3Counts;
  close(): Promise<void>;
}

/** Starts the proxy to `upstream` (an http:// S3 endpoint) on a free loopback port. */
export async function startS3Counter(upstream: string): Promise<S3Counter> {
  const target = new URL(upstream);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const counts: S3Counts = { requests: 0, bytesIn: 0, bytesOut: 0 };
  const server: Server = createServer((req, res) => {
    counts.requests++;
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
        answer.on('data', (piece: Buffer) => (counts.bytesOut += piece.length));
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.on('data', (piece: Buffer) => (counts.bytesIn += piece.length));
    req.pipe(up);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    counts: () => ({ ...counts }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
