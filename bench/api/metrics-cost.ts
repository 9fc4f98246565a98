import type { ChildServer } from '../support/child-server';
import { WARMUP_S } from '../support/api-bench.config';
import type { LoadResult } from '../support/load';
import { DURATION_S, measured, verityLoad, type Measured } from './measure';

/**
 * Metrics off against on: two fresh instances (`off` with METRICS_ENABLED=false, `on` with
 * metrics), each warmed up, measured in the order off, on, on, off so that a linear drift of
 * the machine cancels. The cost is judged by the server's CPU per request.
 */
export async function metricsCost(off: ChildServer, on: ChildServer): Promise<void> {
  await verityLoad(off, 'warm-up', WARMUP_S);
  await verityLoad(on, 'warm-up', WARMUP_S);
  const offRuns = [
    await measured(off, () => verityLoad(off, 'verity (metrics off) run 1', DURATION_S)),
  ];
  const onRuns = [
    await measured(on, () => verityLoad(on, 'verity (metrics on) run 1', DURATION_S)),
    await measured(on, () => verityLoad(on, 'verity (metrics on) run 2', DURATION_S)),
  ];
  offRuns.push(
    await measured(off, () => verityLoad(off, 'verity (metrics off) run 2', DURATION_S)),
  );
  const mean = (rs: LoadResult[], f: (r: LoadResult) => number) =>
    rs.reduce((a, r) => a + f(r), 0) / rs.length;
  const meanCpu = (rs: Measured<LoadResult>[]): number | null => {
    const cpu = rs.map((r) => r.serverCpuUsPerRequest);
    return cpu.every((c) => c !== null) ? cpu.reduce((a, c) => a + c, 0) / cpu.length : null;
  };
  const onRps = mean(onRuns, (r) => r.reqPerSec);
  const offRps = mean(offRuns, (r) => r.reqPerSec);
  const cost = ((offRps - onRps) / offRps) * 100;
  console.log(
    `metrics on ${Math.round(onRps)} req/s (p50 ${mean(onRuns, (r) => r.p50).toFixed(2)} ms, p99 ${mean(onRuns, (r) => r.p99).toFixed(2)} ms) vs ` +
      `off ${Math.round(offRps)} req/s (p50 ${mean(offRuns, (r) => r.p50).toFixed(2)} ms, p99 ${mean(offRuns, (r) => r.p99).toFixed(2)} ms), means of 2 runs each`,
  );
  // Run-to-run spread of one configuration: a difference smaller than that is noise.
  const spread = (rs: LoadResult[]) =>
    (100 * Math.abs(rs[0].reqPerSec - rs[1].reqPerSec)) /
    Math.max(rs[0].reqPerSec, rs[1].reqPerSec);
  const noise = Math.max(spread(onRuns), spread(offRuns));
  // The cost is judged by the server's CPU per request (from /proc): calls per second on two
  // shared cores also move with the load generator's share and the kernel's wake-ups (docs/benchmarks.md).
  const cpuOn = meanCpu(onRuns);
  const cpuOff = meanCpu(offRuns);
  const cpuCost = cpuOn !== null && cpuOff !== null ? ((cpuOn - cpuOff) / cpuOff) * 100 : null;
  const judged = cpuCost ?? cost;
  console.log(
    `throughput cost of metrics: ${cost.toFixed(1)}%${cpuCost === null ? ` (target < 5%) ${cost < 5 ? 'MET' : 'NOT MET'}` : ''}; ` +
      `run-to-run spread of one configuration ${noise.toFixed(1)}%` +
      (Math.abs(cost) < noise ? ' (the difference is within the noise)' : ''),
  );
  if (cpuOn !== null && cpuOff !== null)
    console.log(
      `server CPU cost of metrics: ${judged.toFixed(1)}% (${cpuOn.toFixed(1)} µs per request on vs ${cpuOff.toFixed(1)} µs off, means of 2 runs each) ` +
        `(target < 5%) ${judged < 5 ? 'MET' : 'NOT MET'}`,
    );
}
