import { after, before, describe, it } from 'node:test';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import {
  assertShippedQueriesWork,
  evaluateShippedQueries,
  waitForValue,
  type EvaluationReport,
} from '../deploy/evaluate-queries';
import { startPrometheus, type TestPrometheus } from '../deploy/prometheus-server';
import { driveTraffic } from '../deploy/traffic';

// Debian's Prometheus scrapes the embedded all-in-one (api, ingest and scorer in one process,
// as `verity start` runs them) after real traffic, then evaluates what Verity ships.
describe('a real Prometheus evaluates the dashboard and alert rules (embedded all-in-one)', () => {
  const limits = { ratePerSecond: 2, burst: 6 };
  let stack: TestStack;
  let prometheus: TestPrometheus;
  let report: EvaluationReport;

  before(async () => {
    stack = await startTestStack({
      env: {
        BATCH_CHUNK_ROWS: '2',
        RATE_LIMIT_PER_SECOND: String(limits.ratePerSecond),
        RATE_LIMIT_BURST: String(limits.burst),
      },
      modules: [IngestModule, ScorerModule],
    });
    prometheus = await startPrometheus({
      verity: [`127.0.0.1:${new URL(stack.client.baseUrl).port}`],
    });
    const paying = await stack.account(1_000);
    await driveTraffic(
      {
        paying: paying.client,
        payingKey: paying.apiKey,
        broke: (await stack.account(0)).client,
        burst: (await stack.account(10)).client,
      },
      limits,
    );
    report = await evaluateShippedQueries(prometheus);
  });
  after(async () => {
    await prometheus?.stop();
    await stack?.close();
  });

  it('answers every panel query with series and evaluates every alert rule cleanly', () => {
    assertShippedQueriesWork(report);
  });

  it('sees the traffic it drove: a 402, a 429, a 503 by dependency and a finished job', async () => {
    await waitForValue(
      prometheus,
      'sum(verity_http_rejections_total{reason="insufficient_credits"})',
      1,
    );
    await waitForValue(prometheus, 'sum(verity_http_rejections_total{reason="rate_limited"})', 1);
    await waitForValue(prometheus, 'sum(verity_upstream_unavailable_total{dependency="hlr"})', 1);
    await waitForValue(prometheus, 'sum(verity_batch_jobs_total{status="done"})', 1);
    await waitForValue(prometheus, 'sum(verity_batch_rows_processed_total{type="email"})', 3);
    await waitForValue(prometheus, 'min(verity_readiness_check{check="database"})', 1);
  });
});
