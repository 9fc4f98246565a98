// The PromQL Verity ships: every dashboard panel query and every alerting rule, read from the
// files operators load (Grafana JSON, alerts.yml), for the tests that check and evaluate them.
import { asArray, asObject, at, readRepoFile, readYaml, type Json, str } from './deploy-files';

export const DASHBOARD_FILE = 'deploy/grafana/verity-dashboard.json';
export const ALERTS_FILE = 'deploy/prometheus/alerts.yml';

/** One query of one dashboard panel. */
export interface PanelQuery {
  readonly panel: string;
  readonly expr: string;
}

/** One alerting rule as written in alerts.yml. */
export interface AlertRule {
  readonly group: string;
  readonly alert: string;
  readonly expr: string;
  readonly for?: string;
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
}

/** Every query of every panel, rows flattened (collapsed rows nest their panels). */
export function panelQueries(): PanelQuery[] {
  const dashboard = asObject(JSON.parse(readRepoFile(DASHBOARD_FILE)) as Json, DASHBOARD_FILE);
  const panels = asArray(dashboard.panels, 'panels').flatMap((raw) => {
    const panel = asObject(raw, 'panel');
    return panel.type === 'row' ? asArray(panel.panels, 'row panels') : [panel];
  });
  return panels.flatMap((p) =>
    asArray(at(p, 'targets'), 'targets').map((t) => ({
      panel: str(at(p, 'title')),
      expr: str(at(t, 'expr')),
    })),
  );
}

/**
 * A panel query as Grafana sends it to Prometheus: `$job` (multi-value, "All") becomes a regex
 * matching every job, and `$__rate_interval` and `$__range` (the dashboard's time range) the
 * given window: the test's Prometheus holds only the seconds it has been scraping.
 */
export function asSentByGrafana(expr: string, rateInterval: string): string {
  return expr
    .replaceAll('$__rate_interval', rateInterval)
    .replaceAll('$__range', rateInterval)
    .replaceAll('$job', '.+');
}

/** Every alerting rule of alerts.yml, in file order. */
export function alertRules(): AlertRule[] {
  return asArray(readYaml(ALERTS_FILE).groups, 'groups').flatMap((g) =>
    asArray(at(g, 'rules'), 'rules').map((r) => {
      const strings = (v: Json | undefined) =>
        Object.fromEntries(Object.entries(asObject(v ?? {}, 'map')).map(([k, x]) => [k, str(x)]));
      const rule = asObject(r, 'rule');
      return {
        group: str(at(g, 'name')),
        alert: str(rule.alert),
        expr: str(rule.expr),
        for: rule.for === undefined ? undefined : str(rule.for),
        labels: strings(rule.labels),
        annotations: strings(rule.annotations),
      };
    }),
  );
}
