// Per-process cost of batch jobs, per million rows: the table, the target lines
// and the JSON the capacity script reads (bench/results/batch-latest.json).
import type { S3Counts } from './s3-counter';
import { addSched, NO_SCHED, type SchedUse } from './sched';

export type Kind = 'email' | 'phone' | 'ip';

/** What one distributed job cost, measured from /proc and the counting proxies. */
export interface JobCost {
  kind: Kind;
  rows: number;
  scorers: number;
  wallSeconds: number;
  /** CPU-seconds by label: api, ingest, scorer-*, kafka, s3proxy, postgres, redis, bench. */
  cpu: Map<string, number>;
  s3: S3Counts;
  statements: number;
  /** The scorers' threads and scheduling during the job (sched.ts). */
  sched: SchedUse;
}

const SERVICES = ['kafka', 's3proxy', 'postgres', 'redis'] as const;

/**
 * Several jobs of one kind and replica count as one: rows, CPU by label, S3 and SQL traffic
 * summed, so per-million figures weigh each job by its rows. One 3-second job's CPU moves by
 * ±15 % with the shared services' own work; the pool of a few does not.
 */
export function pooledCost(costs: readonly JobCost[]): JobCost {
  const [first] = costs;
  if (!first) throw new Error('pooledCost needs at least one job');
  const cpu = new Map<string, number>();
  for (const c of costs) for (const [k, v] of c.cpu) cpu.set(k, (cpu.get(k) ?? 0) + v);
  const sum = (f: (c: JobCost) => number) => costs.reduce((n, c) => n + f(c), 0);
  return {
    kind: first.kind,
    scorers: first.scorers,
    rows: sum((c) => c.rows),
    wallSeconds: sum((c) => c.wallSeconds),
    cpu,
    s3: {
      requests: sum((c) => c.s3.requests),
      bytesIn: sum((c) => c.s3.bytesIn),
      bytesOut: sum((c) => c.s3.bytesOut),
    },
    statements: sum((c) => c.statements),
    sched: costs.reduce((n, c) => addSched(n, c.sched), NO_SCHED),
  };
}

/** CPU-seconds per million rows by process, with the scorers' sum, Verity's own and the total. */
export function perMillion(cost: JobCost): Record<string, number> {
  const m = (s: number) => (s / cost.rows) * 1e6;
  const get = (k: string) => m(cost.cpu.get(k) ?? 0);
  const scorers = [...cost.cpu.keys()].filter((k) => k.startsWith('scorer')).sort();
  const scorersTotal = scorers.reduce((n, k) => n + get(k), 0);
  const own = get('api') + get('ingest') + scorersTotal;
  const services = SERVICES.reduce((n, k) => n + get(k), 0);
  return {
    api: get('api'),
    ingest: get('ingest'),
    ...Object.fromEntries(scorers.map((k) => [k, get(k)])),
    scorersTotal,
    ...Object.fromEntries(SERVICES.map((k) => [k, get(k)])),
    own,
    total: own + services,
    bench: get('bench'),
  };
}

const f1 = (n: number) => n.toFixed(1);
const f2 = (n: number) => n.toFixed(2);

/** The per-process table: CPU-s per million rows, S3 and SQL traffic per million rows. */
export function costTable(costs: readonly JobCost[]): string {
  const rows: string[][] = [
    [
      'job',
      'scorers',
      'rows',
      'api',
      'ingest',
      'each scorer',
      'scorers',
      'kafka',
      's3proxy',
      'postgres',
      'redis',
      'own',
      'total',
      'S3 req/M',
      'S3 MiB/M',
      'SQL stmt/M',
    ],
  ];
  for (const c of costs) {
    const p = perMillion(c);
    const each = Object.keys(p)
      .filter((k) => k.startsWith('scorer-'))
      .map((k) => f1(p[k]))
      .join('/');
    const perM = (n: number) => (n / c.rows) * 1e6;
    rows.push([
      c.kind,
      String(c.scorers),
      c.rows.toLocaleString('en-US'),
      f2(p.api),
      f2(p.ingest),
      each,
      f2(p.scorersTotal),
      f2(p.kafka),
      f2(p.s3proxy),
      f2(p.postgres),
      f2(p.redis),
      f2(p.own),
      f2(p.total),
      perM(c.s3.requests).toFixed(0),
      f1(perM(c.s3.bytesIn + c.s3.bytesOut) / 1024 / 1024),
      perM(c.statements).toFixed(0),
    ]);
  }
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i])).join('  ')).join('\n');
}

/**
 * The scorers' main and helper threads per million rows with 1 and 3 scorers, and how often
 * their main threads were preempted: the same CPU per row with more preemptions is the cores'
 * sharing, more CPU with the same preemptions is more work.
 */
function schedComparison(one: JobCost, three: JobCost): string {
  const m = (c: JobCost, v: number) => (v / c.rows) * 1e6;
  const pair = (f: (s: SchedUse) => number, digits: number) =>
    `${m(three, f(three.sched)).toFixed(digits)} vs ${m(one, f(one.sched)).toFixed(digits)}`;
  return (
    `scorers, 3 vs 1 per million rows: main threads ${pair((s) => s.mainCpuS, 2)} CPU-s ` +
    `(system ${pair((s) => s.mainSysS, 2)}), page faults ${pair((s) => s.minorFaults, 0)}, ` +
    `helper threads (GC, compiler, libuv) ${pair((s) => s.helperCpuS, 2)} CPU-s; ` +
    `main threads preempted ${pair((s) => s.preemptions, 0)} times, ` +
    `waited ${pair((s) => s.runQueueWaitS, 1)} s for a core`
  );
}

const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');

/** The target lines (docs/benchmarks.md, "Cost per process"), each saying met / NOT MET. */
export function targetLines(
  table: Record<Kind, JobCost>,
  scaling: Record<string, JobCost>,
  idle: Record<string, number>,
  /** The jobs each `scaling` entry pools, in the order they ran, to show their spread. */
  scalingRuns?: Record<string, readonly JobCost[]>,
): string[] {
  const lines: string[] = [];
  const email = perMillion(table.email);
  lines.push(
    `ingest: ${f2(email.ingest)} CPU-s per million email rows (target <= 1.5: ${verdict(email.ingest <= 1.5)})`,
  );
  for (const kind of ['email', 'phone', 'ip'] as const) {
    const p = perMillion(table[kind]);
    const ratio = p.own / p.scorersTotal;
    lines.push(
      `${kind}: api + ingest + scorers = ${f2(p.own)} CPU-s/M = ${f2(ratio)} × the scorers' ${f2(p.scorersTotal)} (target <= 1.3: ${verdict(ratio <= 1.3)})`,
    );
  }
  const one = scaling['1'];
  const three = scaling['3'];
  if (one && three) {
    const t1 = perMillion(one);
    const t3 = perMillion(three);
    const r = t3.total / t1.total;
    const own = t3.own / t1.own;
    const jobs = (n: string) =>
      (scalingRuns?.[n] ?? []).map((c) => f2(perMillion(c).total)).join(', ');
    lines.push(
      `${one.kind}, total with 3 scorers ${f2(t3.total)} vs 1 scorer ${f2(t1.total)} CPU-s/M: ${f2(r)} × (target within 5 %: ${verdict(Math.abs(r - 1) <= 0.05)}); Verity's own processes ${f2(t3.own)} vs ${f2(t1.own)}: ${f2(own)} ×`,
    );
    lines.push(`  ${schedComparison(one, three)}`);
    if (scalingRuns)
      lines.push(
        `  pooled over ${scalingRuns['1']?.length ?? 0} jobs with 1 scorer (half before the 2 and 3, half after) and ${scalingRuns['3']?.length ?? 0} with 3; each job's total: 1 scorer ${jobs('1')}; 3 scorers ${jobs('3')}`,
      );
  }
  const idleText = Object.entries(idle)
    .map(([k, v]) => `${k} ${(v * 100).toFixed(2)} %`)
    .join(', ');
  const idleOk = Object.values(idle).every((v) => v < 0.005);
  lines.push(`idle, share of one core: ${idleText} (target < 0.5 % each: ${verdict(idleOk)})`);
  return lines;
}

/** The JSON of bench/results/batch-latest.json (shape read by the capacity script). */
export function resultsJson(options: {
  scale: number;
  cpus: number;
  loadAverageAtStart: number;
  table: Record<Kind, JobCost>;
  scaling: Record<string, JobCost>;
  idle: { api: number; ingest: number; scorer: number };
  apiUploadPeakRssMiB?: number;
  /** VmRSS and VmHWM (MiB) of the workers a while after the last job. */
  workerRssMiB?: Record<string, { rss: number; hwm: number }>;
}): unknown {
  const kinds: Record<string, unknown> = {};
  for (const [kind, c] of Object.entries(options.table)) {
    const p = perMillion(c);
    const perM = (n: number) => (n / c.rows) * 1e6;
    kinds[kind] = {
      rows: c.rows,
      scorers: c.scorers,
      wallSeconds: c.wallSeconds,
      rowsPerSecond: c.rows / c.wallSeconds,
      cpuSecondsPerMillionRows: {
        api: p.api,
        ingest: p.ingest,
        scorersTotal: p.scorersTotal,
        kafka: p.kafka,
        s3proxy: p.s3proxy,
        postgres: p.postgres,
        redis: p.redis,
        own: p.own,
        total: p.total,
      },
      s3: {
        requestsPerMillionRows: perM(c.s3.requests),
        bytesPerMillionRows: perM(c.s3.bytesIn + c.s3.bytesOut),
        uploadedBytesPerMillionRows: perM(c.s3.bytesIn),
        downloadedBytesPerMillionRows: perM(c.s3.bytesOut),
      },
      postgresStatementsPerMillionRows: perM(c.statements),
    };
  }
  const scalingKind = Object.values(options.scaling)[0]?.kind ?? 'email';
  return {
    measuredAt: new Date().toISOString(),
    scale: options.scale,
    host: {
      cpus: options.cpus,
      node: process.version,
      loadAverageAtStart: options.loadAverageAtStart,
    },
    kinds,
    replicaScaling: {
      kind: scalingKind,
      totalCpuSecondsPerMillionRows: Object.fromEntries(
        Object.entries(options.scaling).map(([n, c]) => [n, perMillion(c).total]),
      ),
      ownCpuSecondsPerMillionRows: Object.fromEntries(
        Object.entries(options.scaling).map(([n, c]) => [n, perMillion(c).own]),
      ),
    },
    idleCoreFraction: options.idle,
    ...(options.apiUploadPeakRssMiB === undefined
      ? {}
      : { apiUploadPeakRssMiB: options.apiUploadPeakRssMiB }),
    ...(options.workerRssMiB === undefined ? {} : { workerRssMiB: options.workerRssMiB }),
  };
}
