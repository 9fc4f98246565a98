// The framework floor: Fastify doing what a Verity single call asks of the framework, and none
// of Verity's own work. Run as a child process by bench/api.bench.ts, between the bare echo and
// Verity, so that a run shows which part of the gap is the answer's shape and which is Verity.
//
// Like Verity: a request id per request (X-Request-Id), a pino logger at warn with request
// logging off, one onRequest and one preHandler hook (the preHandler sets the three RateLimit
// headers and goes on at once, as Verity's does for a cached key and a bucket kept in the
// process), a handler that returns a promise, the body parsed by Fastify's JSON parser and the
// 200 answer serialised by fast-json-stringify from the same schema as POST /v1/email/validate.
// Not like Verity: no key check, token bucket, credit lease, validation, metrics or access log.
import { randomUUID } from 'node:crypto';
import Fastify, { LogController } from 'fastify';
import pino from 'pino';
import { z } from 'zod';
import { emailResultSchema, type EmailResult } from '@verity/contracts';
import { runChild, serveFastifyChild } from './fastify-child';

/** The answer Verity gives for a deliverable address, with the caller's address as input. */
const ANSWER: Omit<EmailResult, 'input'> = {
  valid_syntax: true,
  mx_found: true,
  disposable: false,
  role_based: false,
  free_provider: false,
  did_you_mean: null,
  deliverability: 'deliverable',
  score: 100,
  credits_used: 1,
};

runChild(async () => {
  const app = Fastify({
    loggerInstance: pino({ level: 'warn' }),
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
  });
  app.addHook('onRequest', (request, reply, done) => {
    void reply.header('X-Request-Id', request.id);
    done();
  });
  app.post('/v1/email/validate', {
    schema: {
      response: { 200: z.toJSONSchema(emailResultSchema, { target: 'draft-7', io: 'output' }) },
    },
    preHandler: (_request, reply, done) => {
      void reply.headers({
        'RateLimit-Limit': '1000000000',
        'RateLimit-Remaining': '999999999',
        'RateLimit-Reset': '1',
      });
      done();
    },
    // A promise, as Verity's handlers return one.
    handler: (request): Promise<EmailResult> =>
      Promise.resolve({ ...ANSWER, input: (request.body as { email: string }).email }),
  });
  await serveFastifyChild(app);
});
