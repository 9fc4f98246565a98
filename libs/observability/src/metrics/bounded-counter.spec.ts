import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Registry } from 'prom-client';
import { BoundedCounter } from './bounded-counter';
import { metricDefinition, type MetricName } from './metric-catalogue';

const ONE_LABEL: MetricName = 'verity_dns_cache_lookups_total';
const TWO_LABELS: MetricName = 'verity_batch_dependency_outages_total';

interface Incrementable<L extends string> {
  inc(labels: Record<L, string>, value?: number): void;
}

/** Zeroed series, increments of one and of more, in an order that is not the labels'. */
function countTheSame(
  one: Incrementable<'result'>,
  two: Incrementable<'worker' | 'dependency'>,
): void {
  one.inc({ result: 'miss' }, 0);
  one.inc({ result: 'hit' });
  one.inc({ result: 'hit' }, 2.5);
  one.inc({ result: 'miss' });
  two.inc({ worker: 'scorer', dependency: 'kafka' }, 0);
  two.inc({ worker: 'assembler', dependency: 'kafka' });
  two.inc({ worker: 'scorer', dependency: 's3' }, 4);
  two.inc({ worker: 'scorer', dependency: 'kafka' });
}

/** The same increments through prom-client's own counters. */
function promClientText(): Promise<string> {
  const registry = new Registry();
  const make = (name: MetricName) =>
    new Counter({
      name,
      help: metricDefinition(name).help,
      labelNames: metricDefinition(name).labels,
      registers: [registry],
    });
  const one = make(ONE_LABEL);
  const two = make(TWO_LABELS);
  countTheSame(one, two);
  return registry.metrics();
}

describe('BoundedCounter', () => {
  it("writes the same exposition as prom-client's counter, with one label and with two", async () => {
    const registry = new Registry();
    const one = new BoundedCounter<'result'>(registry, ONE_LABEL);
    const two = new BoundedCounter<'worker' | 'dependency'>(registry, TWO_LABELS);
    countTheSame(one, two);
    assert.equal(await registry.metrics(), await promClientText());
  });

  it('refuses to go down or by a non-finite amount, and keeps its count', async () => {
    const registry = new Registry();
    const counter = new BoundedCounter<'result'>(registry, ONE_LABEL);
    counter.inc({ result: 'hit' }, 3);
    for (const bad of [-1, Number.NaN, Infinity])
      assert.throws(() => counter.inc({ result: 'hit' }, bad), RangeError);
    const [json] = await registry.getMetricsAsJSON();
    assert.deepEqual(json.values, [{ value: 3, labels: { result: 'hit' } }]);
  });

  it('is emptied by resetMetrics and refused a second registration', async () => {
    const registry = new Registry();
    const counter = new BoundedCounter<'result'>(registry, ONE_LABEL);
    counter.inc({ result: 'hit' });
    registry.resetMetrics();
    counter.inc({ result: 'miss' });
    const [json] = await registry.getMetricsAsJSON();
    assert.deepEqual(json.values, [{ value: 1, labels: { result: 'miss' } }]);
    assert.throws(() => new BoundedCounter(registry, ONE_LABEL), /already been registered/);
  });
});
