import type { AddressInfo } from 'node:net';
import { isServerStop, type ServerReady } from './server-protocol';
import { serveStallRequests } from './stall-monitor';

/** What the helper needs of a Fastify app, whatever its logger type. */
interface ChildApp {
  listen(options: { port: number; host: string }): Promise<string>;
  close(): PromiseLike<unknown>;
  server: { address(): AddressInfo | string | null };
}

/**
 * Serves a benchmark's Fastify app as a child process: listens on a free loopback port, reports
 * it to the parent and closes when asked (bench/support/server-protocol.ts).
 */
export async function serveFastifyChild(app: ChildApp): Promise<void> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.on('message', (message) => {
    if (isServerStop(message)) void app.close().then(() => process.exit(0));
  });
  serveStallRequests();
  process.send?.({ type: 'ready', port } satisfies ServerReady);
}

/** Runs a child's main and exits non-zero, with the error on stderr, when it fails. */
export function runChild(main: () => Promise<void>): void {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
