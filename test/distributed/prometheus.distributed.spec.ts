import { after, before, it } from 'node:test';
import {
  assertShippedQueriesWork,
  evaluateShippedQueries,
  waitForValue,
  type EvaluationReport,
} from '../deploy/evaluate-queries';
import { startPrometheus, type TestPrometheus } from '../deploy/prometheus-server';
import { driveTraffic } from '../deploy/traffic';
import { createAccount, distributedSuite, startCluster, type Cluster } from './cluster';

// Debian's Prometheus scrapes api, ingest and a scorer running as separate processes on the
// real Kafka, Redis, S3 and PostgreSQL, with the job names Compose and Kubernetes use.
distributedSuite('a real Prometheus evaluates the dashboard and alert rules (distributed)', () => {
  const limits = { ratePerSecond: 2, burst: 6 };
  let cluster: Cluster;
  let prometheus: TestPrometheus;
  let report: EvaluationReport;

  before(async () => {
    cluster = await startCluster('prometheus', {
      env: {
        RATE_LIMIT_PER_SECOND: String(limits.ratePerSecond),
        RATE_LIMIT_BURST: String(limits.burst),
      },
    });
    cluster.scorers.push(await cluster.startWorker('scorer', 'scorer'));
    const at = (port: number) => [`127.0.0.1:${port}`];
    prometheus = await startPrometheus({
      'verity-api': at(cluster.api.port),
      'verity-ingest': at(cluster.ingest.port),
      'verity-scorer': at(cluster.scorers[0].port),
    });
    const keyed = async (name: string, credits: number) =>
      cluster.client.withKey((await createAccount(cluster.client, name, credits)).api_key);
    await driveTraffic(
      {
        paying: cluster.client,
        payingKey: cluster.apiKey,
        broke: await keyed('broke', 0),
        burst: await keyed('burst', 10),
      },
      limits,
    );
    report = await evaluateShippedQueries(prometheus);
  });
  after(async () => {
    await prometheus?.stop();
    await cluster?.close();
  });

  it('answers every panel query with series and evaluates every alert rule cleanly', () => {
    assertShippedQueriesWork(report, 'distributed');
  });

  it('reads readiness per dependency and consumer lag from the deployable that owns them', async () => {
    for (const check of ['database', 'row_bus', 'job_queue', 'blob_store'])
      for (const job of ['verity-api', 'verity-ingest', 'verity-scorer'])
        await waitForValue(
          prometheus,
          `min(verity_readiness_check{job="${job}",check="${check}"})`,
          1,
        );
    await waitForValue(
      prometheus,
      'min(verity_readiness_check{job="verity-api",check="rate_limit_store"})',
      1,
    );
    await waitForValue(
      prometheus,
      'count(verity_kafka_consumer_lag{job="verity-scorer",topic=~".+verity[.]batch[.]chunks"})',
      1,
    );
    await waitForValue(
      prometheus,
      'count(verity_kafka_consumer_lag{job="verity-ingest",topic=~".+verity[.]batch[.]progress"})',
      1,
    );
    await waitForValue(prometheus, 'count(verity_batch_job_idle_seconds{job="verity-ingest"})', 2);
    await waitForValue(
      prometheus,
      'sum(verity_batch_rows_processed_total{job="verity-scorer"})',
      3,
    );
  });
});
