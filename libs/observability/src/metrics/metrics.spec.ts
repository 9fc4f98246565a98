import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Registry } from 'prom-client';
import { createMetrics } from './create-metrics';
import { HISTOGRAM_METRIC_NAMES, METRIC_CATALOGUE, METRIC_NAMES } from './metric-catalogue';

const NAME = /^verity_[a-z_]+$/;

async function sampleValue(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const all = await registry.getMetricsAsJSON();
  const metric = all.find((m) => m.name === name);
  const sample = metric?.values.find((v) =>
    Object.entries(labels).every(([k, want]) => String(v.labels[k]) === want),
  );
  return sample?.value;
}

describe('metrics catalogue', () => {
  it('registers every catalogued metric with its declared type and labels', async () => {
    const { registry } = createMetrics();
    const exported = await registry.getMetricsAsJSON();
    assert.deepEqual(exported.map((m) => m.name).sort(), [...METRIC_NAMES].sort());
    for (const def of METRIC_CATALOGUE) {
      const got = exported.find((m) => m.name === def.name);
      assert.equal(got?.type, def.type, def.name);
    }
  });

  it('names follow Prometheus conventions', () => {
    assert.equal(new Set(METRIC_NAMES).size, METRIC_NAMES.length, 'names are unique');
    for (const def of METRIC_CATALOGUE) {
      assert.match(def.name, NAME);
      if (def.type === 'counter') assert.ok(def.name.endsWith('_total'), def.name);
      else assert.ok(!def.name.endsWith('_total'), `${def.name} is not a counter`);
      if (def.type === 'histogram') assert.ok(def.name.endsWith('_seconds'), def.name);
      if (def.name.includes('duration')) assert.ok(def.name.endsWith('_seconds'), def.name);
      for (const label of def.labels) assert.match(label, /^[a-z]+$/);
    }
    assert.deepEqual(HISTOGRAM_METRIC_NAMES, [
      'verity_http_request_duration_seconds',
      'verity_batch_chunk_duration_seconds',
      'verity_smtp_host_wait_seconds',
    ]);
  });

  it('never labels by unbounded identifiers', () => {
    const forbidden = ['job', 'job_id', 'key', 'api_key', 'account', 'email', 'ip', 'phone', 'url'];
    for (const def of METRIC_CATALOGUE) {
      for (const label of def.labels)
        assert.ok(!forbidden.includes(label), `${def.name}{${label}}`);
    }
  });

  it('adds prefixed default process metrics only when asked', async () => {
    const plain = createMetrics();
    const names = (await plain.registry.getMetricsAsJSON()).map((m) => m.name);
    assert.ok(!names.some((n) => n.includes('process_')));

    const withDefaults = createMetrics({ defaults: true });
    const all = (await withDefaults.registry.getMetricsAsJSON()).map((m) => m.name);
    assert.ok(all.includes('verity_process_cpu_seconds_total'));
    assert.ok(all.includes('verity_process_resident_memory_bytes'));
    // prom-client's own names carry digits (eventloop_lag_p99_seconds), hence the wider class.
    for (const name of all) assert.match(name, /^verity_[a-z0-9_]+$/);
  });

  it('is idempotent per registry so one process can host api, ingest and scorer', () => {
    const registry = new Registry();
    const a = createMetrics({ registry });
    const b = createMetrics({ registry });
    assert.equal(a, b);
    assert.notEqual(createMetrics(), createMetrics());
  });

  it('starts bounded series at zero and counts increments', async () => {
    const m = createMetrics();
    assert.equal(
      await sampleValue(m.registry, 'verity_credits_consumed_total', { operation: 'ip_intel' }),
      0,
    );
    m.creditsConsumed.inc({ operation: 'ip_intel' }, 3);
    m.dnsCacheLookups.inc({ result: 'hit' });
    assert.equal(
      await sampleValue(m.registry, 'verity_credits_consumed_total', { operation: 'ip_intel' }),
      3,
    );
    assert.equal(
      await sampleValue(m.registry, 'verity_dns_cache_lookups_total', { result: 'hit' }),
      1,
    );
    assert.equal(
      await sampleValue(m.registry, 'verity_dns_cache_lookups_total', { result: 'miss' }),
      0,
    );
  });

  it('records an HTTP request in the counter and the histogram', async () => {
    const m = createMetrics();
    m.recordHttpRequest('GET', '/v1/email/validate', 200, 0.004);
    m.recordHttpRequest('GET', '/v1/email/validate', 200, 0.2);
    const text = await m.registry.metrics();
    assert.match(
      text,
      /verity_http_requests_total\{method="GET",route="\/v1\/email\/validate",status="200"\} 2/,
    );
    assert.match(
      text,
      /verity_http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/v1\/email\/validate",status="200"\} 1/,
    );
    assert.match(
      text,
      /verity_http_request_duration_seconds_count\{method="GET",route="\/v1\/email\/validate",status="200"\} 2/,
    );
  });

  it('reads consumer lag and data ages at scrape time, dropping stale series', async () => {
    const m = createMetrics();
    let lags = [
      { group: 'verity-scorers', topic: 'verity.batch.chunks', lag: 42 },
      { group: 'verity-assembler', topic: 'verity.batch.progress', lag: 0 },
    ];
    m.setLagSource(() => Promise.resolve(lags));
    m.setDataAgeSource(() => [{ source: 'disposable_domains', ageSeconds: 86_400 }]);
    assert.equal(
      await sampleValue(m.registry, 'verity_kafka_consumer_lag', { group: 'verity-scorers' }),
      42,
    );
    assert.equal(
      await sampleValue(m.registry, 'verity_data_source_age_seconds', {
        source: 'disposable_domains',
      }),
      86_400,
    );
    lags = [{ group: 'verity-scorers', topic: 'verity.batch.chunks', lag: 7 }];
    assert.equal(
      await sampleValue(m.registry, 'verity_kafka_consumer_lag', { group: 'verity-scorers' }),
      7,
    );
    assert.equal(
      await sampleValue(m.registry, 'verity_kafka_consumer_lag', { group: 'verity-assembler' }),
      undefined,
    );
  });

  it('reads readiness per check and batch job idle times at scrape time', async () => {
    const m = createMetrics();
    let redisUp = true;
    m.setReadinessSource(() =>
      Promise.resolve([
        { check: 'database', ok: true },
        { check: 'job_queue', ok: redisUp },
      ]),
    );
    m.setJobIdleSource(() => Promise.resolve([{ status: 'processing', idleSeconds: 720 }]));
    assert.equal(
      await sampleValue(m.registry, 'verity_readiness_check', { check: 'job_queue' }),
      1,
    );
    redisUp = false;
    assert.equal(
      await sampleValue(m.registry, 'verity_readiness_check', { check: 'job_queue' }),
      0,
    );
    assert.equal(await sampleValue(m.registry, 'verity_readiness_check', { check: 'database' }), 1);
    assert.equal(
      await sampleValue(m.registry, 'verity_batch_job_idle_seconds', { status: 'processing' }),
      720,
    );
    m.setJobIdleSource(undefined);
    assert.equal(
      await sampleValue(m.registry, 'verity_batch_job_idle_seconds', { status: 'processing' }),
      undefined,
    );
  });

  it('keeps the scrape alive when a source fails or hangs', async () => {
    const m = createMetrics({ sourceTimeoutMs: 20 });
    m.setLagSource(() => Promise.reject(new Error('broker down')));
    m.setDataAgeSource(() => new Promise(() => undefined));
    m.batchJobs.inc({ status: 'done' });
    const text = await m.registry.metrics();
    assert.match(text, /verity_batch_jobs_total\{status="done"\} 1/);
    assert.doesNotMatch(text, /verity_kafka_consumer_lag\{/);
    assert.doesNotMatch(text, /verity_data_source_age_seconds\{/);
  });

  it('exposes the pending-chunks gauge and chunk timer', async () => {
    const m = createMetrics();
    m.assemblerPendingChunks.set(5);
    m.assemblerPendingChunks.dec();
    const end = m.batchChunkDuration.startTimer({ type: 'email' });
    const seconds = end();
    assert.ok(seconds >= 0);
    const text = await m.registry.metrics();
    assert.match(text, /verity_batch_assembler_pending_chunks 4/);
    assert.match(text, /verity_batch_chunk_duration_seconds_count\{type="email"\} 1/);
    assert.match(text, /verity_batch_chunk_duration_seconds_count\{type="ip"\} 0/);
  });
});
