#!/usr/bin/env node
// Writes deploy/k8s/base/prometheusrule.yaml from deploy/prometheus/alerts.yml, the one source
// of Verity's alerting rules: the Prometheus Operator resource carries the same groups.
// test/deploy/alerts.spec.ts fails when the two differ; run this script after editing alerts.yml.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

const root = join(import.meta.dirname, '..', '..');
const source = 'deploy/prometheus/alerts.yml';
const { groups } = parse(readFileSync(join(root, source), 'utf8'));
const resource = {
  apiVersion: 'monitoring.coreos.com/v1',
  kind: 'PrometheusRule',
  metadata: { name: 'verity', labels: { 'app.kubernetes.io/part-of': 'verity' } },
  spec: { groups },
};
const header = `# Generated from ${source} by scripts/deploy/sync-prometheus-rule.mjs: edit the source, then rerun.\n`;
writeFileSync(
  join(root, 'deploy/k8s/base/prometheusrule.yaml'),
  header + stringify(resource, { lineWidth: 0 }),
);
