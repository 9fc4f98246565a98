import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import pino from 'pino';
import { createWorkerApp } from '@verity/batch';
import { buildEngines, CHECK_TIMEOUT_MS, type EnginesRuntime } from '@verity/platform';
import { BlackHole, freePort, startTestStack, type TestStack } from '@verity/testing';
import { SCORER_REPORT_ONLY } from '../../apps/scorer/src/scorer.readiness';

interface ReadyBody {
  status: string;
  error?: { code: string; message: string };
  checks: Record<string, { ok: boolean; required: boolean; timed_out?: boolean; detail?: unknown }>;
}

/** Kafka and S3 settings that point both at `address` (host:port). */
function batchDependenciesAt(address: string): Record<string, string> {
  return {
    ROW_BUS: 'kafka',
    KAFKA_BROKERS: address,
    PUBLIC_URL: 'http://127.0.0.1:8080',
    BLOB_STORE: 's3',
    S3_ENDPOINT: `http://${address}`,
    S3_BUCKET: 'verity',
    S3_ACCESS_KEY_ID: 'verity',
    S3_SECRET_ACCESS_KEY: 'verity-secret-key',
  };
}

/**
 * Readiness with Kafka and S3 unreachable, as a closed port (refused at once) and as a black
 * hole (accepted, never answered). The API still authenticates and answers single calls, so it
 * stays ready and shows the batch dependencies down; a scorer without Kafka is not ready.
 */
for (const kind of ['closed port', 'black hole'] as const) {
  describe(`readiness with Kafka and S3 behind a ${kind}`, () => {
    let hole: BlackHole | undefined;
    let stack: TestStack;
    let engines: EnginesRuntime;
    let scorer: NestFastifyApplication;

    before(async () => {
      hole = kind === 'black hole' ? await BlackHole.start() : undefined;
      const address = hole?.address ?? `127.0.0.1:${await freePort()}`;
      stack = await startTestStack({ env: batchDependenciesAt(address) });
      const logger = pino({ level: 'silent' });
      engines = await buildEngines(stack.config, null, logger);
      // The scorer's readiness as its main builds it, without ScorerModule (which needs Kafka
      // to start at all): the same checks, the same required set.
      scorer = await createWorkerApp({
        resources: { config: stack.config, dataSource: stack.dataSource, metrics: null },
        logger,
        modules: [],
        engines: engines.engines,
        checks: engines.checks(),
        reportOnly: SCORER_REPORT_ONLY,
      });
      await scorer.init();
    });

    after(async () => {
      // The hole first: its connections then break, so no client waits out a request timeout.
      await hole?.close();
      await scorer?.close();
      await engines?.close();
      await stack?.close();
    });

    it('keeps the API ready, with Kafka and S3 shown down and not required', async () => {
      const ready = (await stack.client.get('/readyz')) as { status: number; body: ReadyBody };
      assert.equal(ready.status, 200, JSON.stringify(ready.body));
      assert.equal(ready.body.status, 'ready');
      for (const check of ['database', 'data_sets'])
        assert.deepEqual(
          [ready.body.checks[check]?.ok, ready.body.checks[check]?.required],
          [true, true],
          check,
        );
      for (const check of ['row_bus', 'blob_store']) {
        assert.equal(
          ready.body.checks[check]?.ok,
          false,
          `${check}: ${JSON.stringify(ready.body)}`,
        );
        assert.equal(ready.body.checks[check]?.required, false, check);
      }
      if (kind === 'black hole')
        for (const check of ['row_bus', 'blob_store'])
          assert.deepEqual(
            [ready.body.checks[check]?.timed_out, ready.body.checks[check]?.detail],
            [true, `no answer within ${CHECK_TIMEOUT_MS} ms`],
            check,
          );

      const { client } = await stack.account(10);
      const single = await client.post('/v1/email/validate', { email: 'jane@example.com' });
      assert.equal(single.status, 200, JSON.stringify(single.body));
    });

    it('takes a scorer out: it cannot reach Kafka', async () => {
      const ready = await scorer.inject({ method: 'GET', url: '/readyz' });
      const body = ready.json<ReadyBody>();
      assert.equal(ready.statusCode, 503, ready.body);
      assert.equal(body.status, 'not_ready');
      assert.equal(body.error?.code, 'service_unavailable');
      assert.deepEqual([body.checks.row_bus?.ok, body.checks.row_bus?.required], [false, true]);
      assert.deepEqual([body.checks.database?.ok, body.checks.data_sets?.ok], [true, true]);
      if (kind === 'black hole') assert.equal(body.checks.row_bus?.timed_out, true);
    });
  });
}
