import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  createMetrics,
  HISTOGRAM_METRIC_NAMES,
  METRIC_CATALOGUE,
  METRIC_NAMES,
} from '@verity/observability';
import {
  asArray,
  asObject,
  at,
  readRepoFile,
  readYaml,
  type Json,
  type JsonObject,
  str,
} from './deploy-files';
import { promqlRefs } from './promql-names';

const DASHBOARD = 'deploy/grafana/verity-dashboard.json';
const dashboard = asObject(JSON.parse(readRepoFile(DASHBOARD)) as Json, DASHBOARD);

/** Panels with queries, rows flattened (collapsed rows nest their panels). */
function queryPanels(): JsonObject[] {
  const out: JsonObject[] = [];
  for (const raw of asArray(dashboard.panels, 'panels')) {
    const panel = asObject(raw, 'panel');
    if (panel.type === 'row') {
      for (const inner of asArray(panel.panels, 'row panels')) out.push(asObject(inner, 'panel'));
    } else out.push(panel);
  }
  return out;
}

function expressions(panel: JsonObject): string[] {
  return asArray(panel.targets, `${str(panel.title)} targets`).map((t) => str(at(t, 'expr')));
}

/** Every series name Prometheus would see from a Verity process, as types expand them. */
async function knownSeries(): Promise<Map<string, readonly string[]>> {
  const { registry } = createMetrics({ defaults: true });
  const series = new Map<string, readonly string[]>();
  const labelsOf = new Map(
    METRIC_CATALOGUE.map((m) => [m.name as string, m.labels as readonly string[]]),
  );
  for (const metric of await registry.getMetricsAsJSON()) {
    const labels = labelsOf.get(metric.name) ?? [];
    series.set(metric.name, labels);
    if (str(metric.type) === 'histogram') {
      series.set(`${metric.name}_bucket`, [...labels, 'le']);
      series.set(`${metric.name}_sum`, labels);
      series.set(`${metric.name}_count`, labels);
    }
    if (str(metric.type) === 'summary') {
      series.set(`${metric.name}_sum`, labels);
      series.set(`${metric.name}_count`, labels);
    }
  }
  series.set('up', []); // written by Prometheus itself for every target
  return series;
}

/** Labels every scraped series carries: the scrape job and instance. */
const TARGET_LABELS = ['job', 'instance'];

describe('Grafana dashboard', () => {
  it('is a provisionable dashboard using the Prometheus datasource variable', () => {
    assert.equal(dashboard.uid, 'verity-overview');
    assert.equal(typeof dashboard.title, 'string');
    const vars = asArray(at(dashboard, 'templating', 'list'), 'templating');
    const ds = vars.map((v) => asObject(v, 'var')).find((v) => v.name === 'DS_PROMETHEUS');
    assert.equal(ds?.type, 'datasource');
    assert.equal(ds?.query, 'prometheus');
    const provisioned = readYaml('deploy/grafana/provisioning/datasources/prometheus.yml');
    const source = asObject(asArray(provisioned.datasources, 'datasources')[0], 'datasource');
    assert.equal(
      source.uid,
      at(ds, 'current', 'value'),
      'default selection is the provisioned uid',
    );
    for (const panel of queryPanels()) {
      assert.equal(at(panel, 'datasource', 'uid'), '${DS_PROMETHEUS}', str(panel.title));
    }
  });

  it('lays out panels with unique ids inside the 24-column grid', () => {
    const ids = new Set<number>();
    for (const raw of asArray(dashboard.panels, 'panels')) {
      const panel = asObject(raw, 'panel');
      const id = Number(panel.id);
      assert.ok(!ids.has(id), `duplicate panel id ${id}`);
      ids.add(id);
      const x = Number(at(panel, 'gridPos', 'x'));
      const w = Number(at(panel, 'gridPos', 'w'));
      assert.ok(x >= 0 && w > 0 && x + w <= 24, `${str(panel.title)} fits the grid`);
    }
  });

  it('references only metric names the catalogue and default metrics export', async () => {
    const known = await knownSeries();
    const queries: string[] = queryPanels().flatMap(expressions);
    for (const v of asArray(at(dashboard, 'templating', 'list'), 'templating')) {
      const q = at(v, 'query', 'query');
      if (typeof q === 'string')
        queries.push(q.replace(/^label_values\(([^,]+),\s*(\w+)\)$/, 'count by ($2) ($1)'));
    }
    assert.ok(queries.length >= 20, 'every panel has queries');
    for (const expr of queries) {
      const { metrics } = promqlRefs(expr);
      assert.ok(metrics.length > 0, `no metric in ${expr}`);
      for (const name of metrics) assert.ok(known.has(name), `unknown metric ${name} in ${expr}`);
    }
  });

  it('groups and filters only by labels the referenced metrics carry', async () => {
    const known = await knownSeries();
    for (const expr of queryPanels().flatMap(expressions)) {
      const { metrics, labels } = promqlRefs(expr);
      const allowed = new Set([...TARGET_LABELS, ...metrics.flatMap((m) => known.get(m) ?? [])]);
      for (const label of labels) assert.ok(allowed.has(label), `label ${label} in ${expr}`);
    }
  });

  it('charts every catalogue metric, histograms through their buckets', () => {
    const used = new Set(
      queryPanels().flatMap((p) => expressions(p).flatMap((e) => promqlRefs(e).metrics)),
    );
    for (const name of METRIC_NAMES) {
      const series = HISTOGRAM_METRIC_NAMES.includes(name) ? `${name}_bucket` : name;
      assert.ok(used.has(series), `${series} is not on the dashboard`);
    }
  });

  it('computes p50, p95 and p99 HTTP latency by route from histogram buckets', () => {
    const latency = queryPanels()
      .flatMap(expressions)
      .filter((e) => e.includes('verity_http_request_duration_seconds_bucket'));
    for (const q of ['0.5', '0.95', '0.99']) {
      assert.ok(
        latency.some((e) => e.startsWith(`histogram_quantile(${q},`) && /by \(le, route\)/.test(e)),
        `p${q}`,
      );
    }
  });

  it('is loaded by the dashboard provider from the folder compose mounts it into', () => {
    const provider = asObject(
      asArray(
        readYaml('deploy/grafana/provisioning/dashboards/verity.yml').providers,
        'providers',
      )[0],
      'provider',
    );
    const folder = str(at(provider, 'options', 'path'));
    const grafana = asObject(at(readYaml('docker-compose.yml'), 'services', 'grafana'), 'grafana');
    const mounts = asArray(grafana.volumes, 'volumes').map(str);
    assert.ok(
      mounts.some((m) => m.startsWith(`./${DASHBOARD}:${folder}/`)),
      mounts.join(', '),
    );
  });
});

describe('PromQL reader', () => {
  it('separates metrics from functions, keywords, labels and variables', () => {
    const refs = promqlRefs(
      'histogram_quantile(0.95, sum by (le, route) (rate(foo_bucket{job=~"$job",a="b(c)"}[$__rate_interval]))) / on(job) group_left bar',
    );
    assert.deepEqual(refs.metrics.sort(), ['bar', 'foo_bucket']);
    assert.deepEqual(
      refs.labels.sort(),
      ['a', 'job', 'job', 'le', 'route'].filter((v, i, a) => a.indexOf(v) === i),
    );
  });
});

describe('operations guide', () => {
  it('lists every catalogue metric', () => {
    const doc = readRepoFile('docs/operations.md');
    const rows = doc.split('\n').filter((line) => line.startsWith('|'));
    for (const name of METRIC_NAMES) {
      assert.ok(
        rows.some((row) => new RegExp(`^\\|\\s*\`${name}\`\\s*\\|`).test(row)),
        name,
      );
    }
  });
});
