import type { Registry } from 'prom-client';
import { registerCollected, type MetricSample } from './collected-metric';
import { metricDefinition, type MetricName } from './metric-catalogue';

/** One series: its labels as first given, and its count. */
interface Series {
  readonly labels: Readonly<Record<string, string>>;
  value: number;
}

/** A level of the series tree: by the value of one label, the next level or the series. */
type Level = Map<string, Level | Series>;

/**
 * A counter over labels with bounded values, for counters bumped on every call (a DNS cache
 * hit, the credits of a call). prom-client's counter hashes its label object into a string key
 * on every `inc`; here the series is found through one small map per label, keyed by the label
 * values themselves (string literals and enum values, whose hashes V8 keeps), so an `inc`
 * allocates nothing. Written out exactly as prom-client's counter (bounded-counter.spec.ts).
 */
export class BoundedCounter<L extends string> {
  private readonly labelNames: readonly L[];
  private root: Level = new Map();
  /** In the order they were first counted, as prom-client lists them. */
  private series: Series[] = [];

  constructor(registry: Registry, name: MetricName) {
    this.labelNames = metricDefinition(name).labels as readonly L[];
    if (this.labelNames.length === 0) throw new Error(`${name}: a BoundedCounter needs a label`);
    registerCollected(
      registry,
      name,
      'counter',
      () => this.series.map((s): MetricSample => ({ value: s.value, labels: s.labels })),
      () => {
        this.root = new Map();
        this.series = [];
      },
    );
  }

  /** Adds `value` (default 1) to the series of `labels`; a negative value is refused, as by prom-client. */
  inc(labels: Readonly<Record<L, string>>, value = 1): void {
    if (!(value >= 0) || value === Infinity)
      throw new RangeError(`a counter only grows by a finite amount, not ${value}`);
    let level = this.root;
    const last = this.labelNames.length - 1;
    for (let i = 0; i < last; i++) {
      const key = labels[this.labelNames[i]];
      let next = level.get(key) as Level | undefined;
      if (next === undefined) level.set(key, (next = new Map()));
      level = next;
    }
    const key = labels[this.labelNames[last]];
    const found = level.get(key) as Series | undefined;
    if (found !== undefined) {
      found.value += value;
      return;
    }
    const series: Series = { labels: { ...labels }, value };
    level.set(key, series);
    this.series.push(series);
  }
}
