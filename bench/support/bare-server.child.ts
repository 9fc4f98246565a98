// The floor: a bare Fastify server answering a tiny JSON POST with the parsed body, no logging,
// no plugins. Run as a child process by bench/api.bench.ts.
import Fastify from 'fastify';
import { isServerStop, type ServerReady } from './server-protocol';

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.post('/echo', (request) => request.body);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.on('message', (message) => {
    if (isServerStop(message)) void app.close().then(() => process.exit(0));
  });
  process.send?.({ type: 'ready', port } satisfies ServerReady);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
