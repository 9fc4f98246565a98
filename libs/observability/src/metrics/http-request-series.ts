import type { Registry } from 'prom-client';
import { registerCollected, type MetricSample } from './collected-metric';
import type { MetricName } from './metric-catalogue';

/** One (method, route, status) series: its request count, latency sum and latency buckets. */
interface Series {
  readonly labels: { readonly method: string; readonly route: string; readonly status: string };
  count: number;
  sum: number;
  /** Requests per bucket, not cumulative: index i counts latencies in (bound[i-1], bound[i]]. */
  readonly perBucket: number[];
}

/**
 * `verity_http_requests_total` and `verity_http_request_duration_seconds`, kept by the API on
 * every answered request. prom-client's counter and histogram hash their label object into a
 * string on every `inc` and `observe` (two hashes and two string keys per request); here a
 * request finds its series through three small maps of the values themselves, and adds to two
 * numbers and one bucket. The series are written out in prom-client's exposition at scrape
 * time by two metric objects registered in the registry, so `/metrics` reads as before.
 */
export class HttpRequestSeries {
  private byRoute = new Map<string, Map<string, Map<number, Series>>>();
  /** In the order they were first counted, as prom-client lists them. */
  private all: Series[] = [];

  constructor(private readonly bounds: readonly number[]) {}

  /** Counts one answered request and its latency in seconds. */
  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined)
      this.byRoute.set(route, (byMethod = new Map<string, Map<number, Series>>()));
    let byStatus = byMethod.get(method);
    if (byStatus === undefined) byMethod.set(method, (byStatus = new Map<number, Series>()));
    let series = byStatus.get(status);
    if (series === undefined) {
      series = {
        labels: { method, route, status: String(status) },
        count: 0,
        sum: 0,
        perBucket: new Array<number>(this.bounds.length).fill(0),
      };
      byStatus.set(status, series);
      this.all.push(series);
    }
    series.count += 1;
    series.sum += seconds;
    const bucket = this.bucketOf(seconds);
    if (bucket < this.bounds.length) series.perBucket[bucket] += 1;
  }

  /** Registers the counter and the histogram in `registry`. */
  register(registry: Registry, counter: MetricName, histogram: MetricName): void {
    const reset = () => {
      this.byRoute = new Map();
      this.all = [];
    };
    registerCollected(registry, counter, 'counter', () => this.counterValues(counter), reset);
    registerCollected(
      registry,
      histogram,
      'histogram',
      () => this.histogramValues(histogram),
      reset,
    );
  }

  private bucketOf(seconds: number): number {
    let i = 0;
    while (i < this.bounds.length && seconds > this.bounds[i]) i += 1;
    return i;
  }

  private counterValues(name: string): MetricSample[] {
    return this.all.map((s) => ({
      metricName: name,
      labels: { ...s.labels },
      value: s.count,
    }));
  }

  // The same lines, in the same order and label order, as prom-client's own histogram.
  private histogramValues(name: string): MetricSample[] {
    const values: MetricSample[] = [];
    for (const s of this.all) {
      let cumulative = 0;
      this.bounds.forEach((le, i) => {
        cumulative += s.perBucket[i];
        values.push({
          metricName: `${name}_bucket`,
          labels: { le, ...s.labels },
          value: cumulative,
        });
      });
      values.push(
        { metricName: `${name}_bucket`, labels: { le: '+Inf', ...s.labels }, value: s.count },
        { metricName: `${name}_sum`, labels: { ...s.labels }, value: s.sum },
        { metricName: `${name}_count`, labels: { ...s.labels }, value: s.count },
      );
    }
    return values;
  }
}
