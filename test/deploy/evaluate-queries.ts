// Evaluates the PromQL Verity ships against a live Prometheus that scrapes live deployables:
// every dashboard panel query must return at least one series, every alert expression must
// evaluate without error, and every loaded rule must report healthy evaluations.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { alertRules, asSentByGrafana, panelQueries } from './observability-queries';
import type { TestPrometheus } from './prometheus-server';

/** What the evaluation found; every list empty means the shipped queries work. */
export interface EvaluationReport {
  readonly panelQueries: number;
  readonly alertExpressions: number;
  /** Panel queries that answered no series (`panel: expr`). */
  readonly emptyPanels: string[];
  /** Expressions Prometheus refused (`what: error`). */
  readonly errors: string[];
  /** Loaded rules whose last evaluation was not healthy. */
  readonly unhealthyRules: string[];
  /** Series selectors of alert expressions that match nothing (`alert: selector`). */
  readonly unmatchedSelectors: string[];
}

/** The series selectors of an expression: `metric{matchers}` or a bare metric name. */
export function selectors(expr: string): string[] {
  const found = new Set<string>();
  const noStrings = expr.replace(/"(?:[^"\\]|\\.)*"/g, (m) => m.replace(/[a-z_]/gi, 'x'));
  for (const m of noStrings.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{[^}]*\})?/g)) {
    const [whole, name, matchers] = m;
    const after = noStrings.slice((m.index ?? 0) + whole.length).trimStart();
    if (!name.startsWith('verity_') && name !== 'up') continue;
    if (matchers === undefined && after.startsWith('(')) continue;
    found.add(expr.slice(m.index, (m.index ?? 0) + whole.length).trim());
  }
  return [...found];
}

/** The window Grafana's $__rate_interval becomes with the tests' 1 s scrape interval. */
const RATE_INTERVAL = '30s';
const NEVER = '0001-01-01T00:00:00Z';

export async function evaluateShippedQueries(
  prometheus: TestPrometheus,
  timeoutMs = 60_000,
): Promise<EvaluationReport> {
  const emptyPanels: string[] = [];
  const errors: string[] = [];
  const panels = panelQueries();
  for (const { panel, expr } of panels) {
    const result = await prometheus.waitForSeries(asSentByGrafana(expr, RATE_INTERVAL), timeoutMs);
    if (!result.ok) errors.push(`${panel}: ${result.error}`);
    else if (result.samples.length === 0) emptyPanels.push(`${panel}: ${expr}`);
  }
  const rules = alertRules();
  const unmatchedSelectors: string[] = [];
  for (const rule of rules) {
    const result = await prometheus.query(rule.expr);
    if (!result.ok) errors.push(`${rule.alert}: ${result.error}`);
    for (const selector of selectors(rule.expr)) {
      const found = await prometheus.query(selector);
      if (!found.ok) errors.push(`${rule.alert} ${selector}: ${found.error}`);
      else if (found.samples.length === 0) unmatchedSelectors.push(`${rule.alert}: ${selector}`);
    }
  }
  // The same rules loaded from alerts.yml: wait until each has been evaluated once.
  const deadline = Date.now() + timeoutMs;
  let loaded = await prometheus.rules();
  while (loaded.some((r) => r.lastEvaluation === NEVER) && Date.now() < deadline) {
    await sleep(250);
    loaded = await prometheus.rules();
  }
  const unhealthyRules = loaded
    .filter((r) => r.health !== 'ok')
    .map((r) => `${r.name}: ${r.health} ${r.lastError ?? ''}`);
  const names = new Set(loaded.map((r) => r.name));
  for (const rule of rules)
    if (!names.has(rule.alert)) unhealthyRules.push(`${rule.alert}: not loaded`);
  return {
    panelQueries: panels.length,
    alertExpressions: rules.length,
    emptyPanels,
    errors,
    unhealthyRules,
    unmatchedSelectors,
  };
}

/**
 * Selectors allowed to match nothing on a fresh test install, each with the reason. A rule
 * whose selector matches nothing can never fire: every other selector must find series.
 */
export const EXPECTED_UNMATCHED: Readonly<Record<string, string>> = {
  'VerityOpenDataStale: verity_data_source_age_seconds{source=~"tor.*"}':
    'the Tor exit list is empty (no age) until `verity data update` fetches it',
};

/**
 * Panel queries allowed to answer nothing in the distributed shape, each with the reason: the
 * embedded evaluation (test/e2e/prometheus.e2e.spec.ts) still requires their series.
 */
export const EMBEDDED_ONLY_PANELS: Readonly<Record<string, string>> = {
  'Memory by instance (RSS, heap, in-process row bus backlog): sum by (job, instance) (verity_row_bus_backlog_bytes{job=~"$job"})':
    'the in-process row bus exists only in the embedded default; on Kafka the backlog is the consumer lag panel',
};

/**
 * Asserts what a healthy evaluation looks like; `shape` says which deployment was scraped
 * (a distributed one has no in-process row bus).
 */
export function assertShippedQueriesWork(
  report: EvaluationReport,
  shape: 'embedded' | 'distributed' = 'embedded',
): void {
  assert.ok(report.panelQueries >= 20, `${report.panelQueries} panel queries`);
  assert.ok(report.alertExpressions >= 15, `${report.alertExpressions} rules`);
  assert.deepEqual(report.errors, [], 'expressions Prometheus refused');
  const empty =
    shape === 'distributed'
      ? report.emptyPanels.filter((panel) => EMBEDDED_ONLY_PANELS[panel] === undefined)
      : report.emptyPanels;
  assert.deepEqual(empty, [], 'panel queries without series');
  assert.deepEqual(report.unhealthyRules, [], 'rules Prometheus did not evaluate cleanly');
  for (const selector of report.unmatchedSelectors)
    assert.ok(EXPECTED_UNMATCHED[selector], `alert selector matches no series: ${selector}`);
}

/** Polls `expr` until its first sample reaches `want` (Prometheus scraped the traffic). */
export async function waitForValue(
  prometheus: TestPrometheus,
  expr: string,
  want: number,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let seen = NaN;
  while (Date.now() < deadline) {
    const result = await prometheus.query(expr);
    seen = result.ok && result.samples[0] ? Number(result.samples[0].value[1]) : NaN;
    if (seen >= want) return;
    await sleep(250);
  }
  assert.fail(`${expr} is ${seen}, expected at least ${want}`);
}
