import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Counter, Histogram, Registry } from 'prom-client';
import { HttpRequestSeries } from './http-request-series';
import { HTTP_DURATION_BUCKETS, metricDefinition } from './metric-catalogue';

const COUNTER = 'verity_http_requests_total';
const HISTOGRAM = 'verity_http_request_duration_seconds';
const LABELS = ['method', 'route', 'status'] as const;

// Latencies on, between, below and above the bounds, over several series, the last one new
// for a route seen before (prom-client lists series in the order they were first counted).
const REQUESTS: readonly (readonly [string, string, number, number])[] = [
  ['POST', '/v1/email/validate', 200, 0.0004],
  ['POST', '/v1/email/validate', 200, HTTP_DURATION_BUCKETS[0]],
  ['POST', '/v1/email/validate', 200, 0.03],
  ['POST', '/v1/email/validate', 402, 0.001],
  ['GET', '/v1/batch/:jobId', 200, 0.7],
  ['GET', 'unmatched', 404, 1e6],
  ['POST', '/v1/email/validate', 200, 0.03],
  ['POST', '/v1/email/validate', 500, 0.002],
];

/** The same requests through prom-client's own counter and histogram. */
function promClientText(): Promise<string> {
  const registry = new Registry();
  const counter = new Counter({
    name: COUNTER,
    help: metricDefinition(COUNTER).help,
    labelNames: LABELS,
    registers: [registry],
  });
  const histogram = new Histogram({
    name: HISTOGRAM,
    help: metricDefinition(HISTOGRAM).help,
    labelNames: LABELS,
    buckets: [...HTTP_DURATION_BUCKETS],
    registers: [registry],
  });
  for (const [method, route, status, seconds] of REQUESTS) {
    counter.inc({ method, route, status });
    histogram.observe({ method, route, status }, seconds);
  }
  return registry.metrics();
}

describe('HttpRequestSeries', () => {
  it("writes the same exposition as prom-client's counter and histogram", async () => {
    const registry = new Registry();
    const series = new HttpRequestSeries(HTTP_DURATION_BUCKETS);
    series.register(registry, COUNTER, HISTOGRAM);
    for (const [method, route, status, seconds] of REQUESTS)
      series.record(method, route, status, seconds);
    assert.equal(await registry.metrics(), await promClientText());
  });

  it('reads the same as JSON, and resetMetrics empties it', async () => {
    const registry = new Registry();
    const series = new HttpRequestSeries(HTTP_DURATION_BUCKETS);
    series.register(registry, COUNTER, HISTOGRAM);
    series.record('POST', '/v1/ip/check', 200, 0.002);
    const [counter, histogram] = await registry.getMetricsAsJSON();
    assert.deepEqual(
      { name: counter.name, type: counter.type, values: counter.values },
      {
        name: COUNTER,
        type: 'counter',
        values: [
          {
            metricName: COUNTER,
            labels: { method: 'POST', route: '/v1/ip/check', status: '200' },
            value: 1,
          },
        ],
      },
    );
    assert.equal(histogram.type, 'histogram');
    assert.equal(histogram.values.length, HTTP_DURATION_BUCKETS.length + 3);
    registry.resetMetrics();
    assert.equal(
      await registry.getSingleMetricAsString(COUNTER),
      [`# HELP ${COUNTER} ${metricDefinition(COUNTER).help}`, `# TYPE ${COUNTER} counter`].join(
        '\n',
      ),
    );
  });

  it('refuses a second registration of a name, as prom-client does', () => {
    const registry = new Registry();
    new HttpRequestSeries(HTTP_DURATION_BUCKETS).register(registry, COUNTER, HISTOGRAM);
    assert.throws(
      () => new HttpRequestSeries(HTTP_DURATION_BUCKETS).register(registry, COUNTER, HISTOGRAM),
      /already been registered/,
    );
  });
});
