import type { Metric, MetricValueWithName, Registry } from 'prom-client';
import { metricDefinition, type MetricName } from './metric-catalogue';

/** One line of a metric's exposition: its labels in order, its value, and for a histogram its name. */
export type MetricSample = MetricValueWithName<string>;

/**
 * Registers a counter or histogram whose samples Verity keeps itself, written out by the
 * registry at scrape time as prom-client writes its own. The registry takes any object with
 * `name`, `get()` and `reset()` (what `get()` returns is what it formats); its typings only
 * name prom-client's classes, hence the cast. A second metric of the same name is refused, as
 * for prom-client's own.
 */
export function registerCollected(
  registry: Registry,
  name: MetricName,
  type: 'counter' | 'histogram',
  samples: () => MetricSample[],
  reset: () => void,
): void {
  const help = metricDefinition(name).help;
  const metric = {
    name,
    help,
    type,
    aggregator: 'sum',
    get: () => Promise.resolve({ name, help, type, values: samples(), aggregator: 'sum' }),
    reset,
  };
  registry.registerMetric(metric as unknown as Metric);
}
