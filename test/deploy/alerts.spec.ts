import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { METRIC_NAMES } from '@verity/observability';
import { asArray, at, readRepoFile, readYaml, repoRoot, str } from './deploy-files';
import { render } from './kubectl-kustomize';
import { selectors } from './evaluate-queries';
import { ALERTS_FILE, alertRules } from './observability-queries';
import { promqlRefs } from './promql-names';

const TESTS_FILE = 'deploy/prometheus/alerts.test.yml';
const RUNBOOK = 'docs/operations.md';
const rules = alertRules();

/** Runs promtool and returns its output; a failing check throws with promtool's own message. */
function promtool(...args: string[]): string {
  try {
    return execFileSync('promtool', args, { cwd: repoRoot, encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stdout?: string; stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error('promtool not found: apt-get install prometheus (.ci/run does)', {
        cause: error,
      });
    throw new Error(`promtool ${args.join(' ')}:\n${e.stdout ?? ''}${e.stderr ?? ''}`, {
      cause: error,
    });
  }
}

/** GitHub's anchor for a Markdown heading. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\w\- ]/g, '')
    .replace(/ /g, '-');

/** The runbook's sections by anchor: the text from a heading to the next heading. */
function runbookSections(): Map<string, string> {
  const sections = new Map<string, string>();
  let current: string | undefined;
  for (const line of readRepoFile(RUNBOOK).split('\n')) {
    const heading = /^#{2,4} (.+)$/.exec(line);
    if (heading) {
      current = anchorOf(heading[1]);
      sections.set(current, '');
    } else if (current !== undefined) sections.set(current, sections.get(current) + line + '\n');
  }
  return sections;
}

describe('alerting rules', () => {
  it('pass promtool check rules, and the Compose config that loads them passes check config', () => {
    assert.match(
      promtool('check', 'rules', ALERTS_FILE),
      new RegExp(`${rules.length} rules found`),
    );
    assert.match(promtool('check', 'config', 'deploy/prometheus/prometheus.yml'), /SUCCESS/);
  });

  it('pass their promtool unit tests, which cover every rule firing', () => {
    assert.match(promtool('test', 'rules', TESTS_FILE), /SUCCESS/);
    const tested = new Set<string>();
    for (const t of asArray(readYaml(TESTS_FILE).tests, 'tests'))
      for (const a of asArray(at(t, 'alert_rule_test'), 'alert_rule_test'))
        if (asArray(at(a, 'exp_alerts'), 'exp_alerts').length > 0)
          tested.add(str(at(a, 'alertname')));
    assert.deepEqual(
      rules.map((r) => r.alert).filter((name) => !tested.has(name)),
      [],
      'rules without a firing test case',
    );
  });

  it('cover what the issue asks for, with unique names', () => {
    const names = rules.map((r) => r.alert);
    assert.equal(new Set(names).size, names.length);
    const exprs = rules.map((r) => r.expr).join('\n');
    for (const needle of [
      'status=~"5.."',
      'histogram_quantile(0.99',
      'verity_upstream_unavailable_total',
      'check="database"',
      'check="row_bus"',
      'check="blob_store"',
      'check=~"job_queue|rate_limit_store"',
      'verity_batch_job_idle_seconds',
      'verity[.]batch[.]chunks',
      'verity[.]batch[.]progress',
      'verity_batch_chunks_dead_lettered_total',
      'verity_webhook_deliveries_total',
      'verity_data_source_age_seconds',
      'verity_credit_ledger_errors_total',
      'verity_process_start_time_seconds',
    ])
      assert.ok(exprs.includes(needle), needle);
  });

  it('each carry a severity, a deployable, a summary naming it and a runbook section', () => {
    const sections = runbookSections();
    for (const rule of rules) {
      assert.match(rule.labels.severity ?? '', /^(critical|warning)$/, rule.alert);
      assert.ok(rule.labels.deployable, `${rule.alert} deployable`);
      const summary = rule.annotations.summary ?? '';
      assert.match(
        summary,
        /^(api|ingest|scorer|ingest\/scorer|api\/scorer|\{\{ \$labels\.job \}\})[ :]/,
        rule.alert,
      );
      const url = rule.annotations.runbook_url ?? '';
      assert.equal(url, `${RUNBOOK}#${rule.alert.toLowerCase()}`, rule.alert);
      const section = sections.get(rule.alert.toLowerCase());
      assert.ok(section, `${RUNBOOK} has a section ${rule.alert}`);
      for (const part of ['**Meaning**', '**Confirm**', '**Act**'])
        assert.ok(section.includes(part), `${rule.alert} runbook: ${part}`);
    }
  });

  it('query only metrics Verity exports (or up), by labels they carry', () => {
    const known = new Set<string>([...METRIC_NAMES, 'up', 'verity_process_start_time_seconds']);
    for (const rule of rules) {
      for (const name of promqlRefs(rule.expr).metrics) {
        const base = name.replace(/_bucket$/, '');
        assert.ok(known.has(base), `${rule.alert}: unknown metric ${name}`);
      }
      assert.ok(selectors(rule.expr).length > 0, `${rule.alert} selects series`);
    }
  });

  it('ship to Kubernetes as a PrometheusRule with exactly the same groups', () => {
    const rendered = render('deploy/k8s/base').find((r) => r.kind === 'PrometheusRule');
    assert.ok(rendered, 'the base renders a PrometheusRule');
    assert.deepEqual(
      at(rendered, 'spec', 'groups'),
      readYaml(ALERTS_FILE).groups,
      'deploy/k8s/base/prometheusrule.yaml differs from alerts.yml: run node scripts/deploy/sync-prometheus-rule.mjs',
    );
  });
});

describe('runbook', () => {
  it('has the operator procedures the issue lists', () => {
    const sections = runbookSections();
    for (const procedure of [
      'rotate-the-signing-secret',
      'add-a-scorer',
      'drain-an-api-pod',
      'replay-a-dead-lettered-chunk',
      'restore-from-a-database-backup',
      'refresh-open-data',
    ])
      assert.ok(sections.has(procedure), procedure);
  });

  it('links only to its own sections', () => {
    const sections = runbookSections();
    const doc = readRepoFile(RUNBOOK);
    for (const m of doc.matchAll(/\]\(#([a-z0-9-]+)\)/g))
      assert.ok(sections.has(m[1]), `dangling link #${m[1]}`);
  });
});
