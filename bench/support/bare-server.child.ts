// The floor: a bare Fastify server answering a tiny JSON POST with the parsed body, no logging,
// no plugins. Run as a child process by bench/api.bench.ts.
import Fastify from 'fastify';
import { runChild, serveFastifyChild } from './fastify-child';

runChild(async () => {
  const app = Fastify({ logger: false });
  app.post('/echo', (request) => request.body);
  await serveFastifyChild(app);
});
