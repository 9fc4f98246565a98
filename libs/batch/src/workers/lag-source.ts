import type { RowBus } from '@verity/ports';
import type { VerityMetrics } from '@verity/observability';

const watched = new WeakMap<VerityMetrics, { bus: RowBus; groups: Map<string, string> }>();

/**
 * Adds `group` on `topic` to what `verity_kafka_consumer_lag` reports. The metrics registry
 * takes one lag source, and `verity start` hosts both the scorer and the assembler, so the
 * groups of one process are collected here and read together at scrape time.
 */
export function watchLag(
  metrics: VerityMetrics | null,
  bus: RowBus,
  group: string,
  topic: string,
): void {
  if (!metrics) return;
  let entry = watched.get(metrics);
  if (!entry) {
    const created = { bus, groups: new Map<string, string>() };
    entry = created;
    watched.set(metrics, created);
    metrics.setLagSource(async () =>
      Promise.all(
        [...created.groups].map(async ([g, t]) => {
          const parts = await created.bus.lag(g, t);
          return { group: g, topic: t, lag: parts.reduce((n, p) => n + p.lag, 0) };
        }),
      ),
    );
  }
  entry.groups.set(group, topic);
}
