import type { ChildServer } from '../support/child-server';
import { VERITY_PATH, WARMUP_S } from '../support/api-bench.config';
import type { LoadResult } from '../support/load';
import { median } from '../support/median';
import { bareLoad, DURATION_S, FLOOR_PATH, measured, verityLoad, type Measured } from './measure';

/** Alternated rounds of the saturated comparison (BENCH_ROUNDS). */
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));

/** One round of the saturated comparison: each server measured once, and Verity's statements. */
export interface SaturatedRound {
  bare: Measured<LoadResult>;
  floor: Measured<LoadResult>;
  verity: Measured<LoadResult>;
  statements: number;
}

/**
 * The three servers saturated in turn, ROUNDS times, the order reversed every other round so a
 * drift of the machine falls on each alike. A single run of one server moves by 10-20 % on
 * these VMs (docs/benchmarks.md); the ratios are judged by their median over the rounds, each
 * round's pair measured minutes apart at most.
 */
export async function saturatedRounds(
  bare: ChildServer,
  floor: ChildServer,
  verity: ChildServer,
): Promise<SaturatedRound[]> {
  await bareLoad(bare, 'warm-up', WARMUP_S);
  await bareLoad(floor, 'warm-up', WARMUP_S, FLOOR_PATH);
  await verityLoad(verity, 'warm-up', WARMUP_S);
  const rounds: SaturatedRound[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    console.log(`round ${i + 1} of ${ROUNDS}`);
    let statements = 0;
    const runs = {
      bare: () => measured(bare, () => bareLoad(bare, 'bare fastify echo', DURATION_S)),
      floor: () =>
        measured(floor, () => bareLoad(floor, 'framework floor', DURATION_S, FLOOR_PATH)),
      verity: async () => {
        const before = await verity.statements();
        const run = await measured(verity, () =>
          verityLoad(verity, `verity POST ${VERITY_PATH} (metrics on)`, DURATION_S),
        );
        statements = (await verity.statements()) - before;
        return run;
      },
    };
    const order =
      i % 2 === 0 ? (['bare', 'floor', 'verity'] as const) : (['verity', 'floor', 'bare'] as const);
    const measuredRuns: Partial<Record<keyof typeof runs, Measured<LoadResult>>> = {};
    for (const name of order) measuredRuns[name] = await runs[name]();
    const { bare: b, floor: f, verity: v } = measuredRuns;
    if (!b || !f || !v) throw new Error('a saturated round missed a server');
    console.log(
      `  round ${i + 1}: verity/bare ${(v.reqPerSec / b.reqPerSec).toFixed(3)}, framework floor/bare ${(f.reqPerSec / b.reqPerSec).toFixed(3)}`,
    );
    rounds.push({ bare: b, floor: f, verity: v, statements });
  }
  return rounds;
}

/** The median saturated rate of one server over the rounds, req/s. */
export function medianRate(rounds: SaturatedRound[], server: 'bare' | 'floor' | 'verity'): number {
  return median(rounds.map((r) => r[server].reqPerSec));
}

/** Prints the verdicts of the saturated rounds: the ratios, the CPU split, the statements. */
export function reportSaturated(rounds: SaturatedRound[]): void {
  const ratios = rounds.map((r) => r.verity.reqPerSec / r.bare.reqPerSec);
  const ratio = median(ratios);
  console.log(
    `ratio verity/bare: ${ratio.toFixed(3)}, the median of ${rounds.length} alternated rounds (${listed(ratios)}) (target >= 0.5) ${ratio >= 0.5 ? 'MET' : 'NOT MET'}`,
  );
  console.log(
    `ratio framework floor/bare: ${median(rounds.map((r) => r.floor.reqPerSec / r.bare.reqPerSec)).toFixed(3)}; ` +
      `verity/framework floor: ${median(rounds.map((r) => r.verity.reqPerSec / r.floor.reqPerSec)).toFixed(3)} (medians of the rounds)`,
  );
  printCostSplit(
    medianCpu(rounds.map((r) => r.bare)),
    medianCpu(rounds.map((r) => r.floor)),
    medianCpu(rounds.map((r) => r.verity)),
  );
  const statements = rounds.reduce((sum, r) => sum + r.statements, 0);
  const calls = rounds.reduce((sum, r) => sum + r.verity.requests, 0);
  const perThousand = (statements / calls) * 1000;
  console.log(
    `database statements per 1,000 successful calls: ${perThousand.toFixed(2)} (${statements} statements for ${calls} calls over the rounds, counted by a wrapper around pg's Client.query in the server) (target <= 5) ${perThousand <= 5 ? 'MET' : 'NOT MET'}`,
  );
}

/** The median server CPU per request of `runs`, null when /proc could not say for one of them. */
function medianCpu(runs: Measured<LoadResult>[]): number | null {
  const values = runs.map((r) => r.serverCpuUsPerRequest);
  return values.every((v): v is number => v !== null) ? median(values) : null;
}

function listed(values: number[]): string {
  return values.map((v) => v.toFixed(3)).join(', ');
}

/**
 * Prints where a Verity call's CPU goes beyond the bare server's: the framework floor, and the
 * rest. The rest is more than Verity's functions: a slower server's socket writes wake the load
 * generator more often, and framework code runs in a bigger process (docs/benchmarks.md).
 */
function printCostSplit(bare: number | null, floor: number | null, verity: number | null): void {
  if (bare === null || floor === null || verity === null) return;
  const extra = verity - bare;
  console.log(
    `server CPU per request: bare ${bare.toFixed(1)} µs, framework floor ${floor.toFixed(1)} µs, verity ${verity.toFixed(1)} µs; ` +
      `of verity's ${extra.toFixed(1)} µs above bare, ${(floor - bare).toFixed(1)} µs is the framework floor (answer shape, hooks, request id, logger) ` +
      `and ${(verity - floor).toFixed(1)} µs the rest: Verity's functions (key, token bucket, credit lease, validation, metrics, access log) ` +
      'and what they cost the framework and the kernel around them (`--perf` splits it)',
  );
}
