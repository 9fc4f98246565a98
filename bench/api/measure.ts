import type { ChildServer } from '../support/child-server';
import { BODIES, VERITY_PATH } from '../support/api-bench.config';
import { withCpu } from '../support/cpu-usage';
import { formatLoad, runLoad, type LoadResult } from '../support/load';

/** Seconds of each measured run (BENCH_DURATION_S). */
export const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/** Connections of the closed-loop runs (BENCH_CONNECTIONS). */
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** The framework floor answers on Verity's path. */
export const FLOOR_PATH = '/v1/email/validate';

/** A run against Verity's benchmarked call (BENCH_ROUTE) with the child's API key. */
export function verityLoad(
  server: ChildServer,
  label: string,
  durationS: number,
  overallRate?: number,
  connections = CONNECTIONS,
): Promise<LoadResult> {
  return runLoad({
    label,
    url: `http://127.0.0.1:${server.port}${VERITY_PATH}`,
    connections,
    durationS,
    headers: { 'x-api-key': server.apiKey ?? '' },
    bodies: BODIES,
    overallRate,
  });
}

/** A run against a server without a key: the bare echo, or the framework floor on FLOOR_PATH. */
export function bareLoad(
  server: ChildServer,
  label: string,
  durationS: number,
  path = '/echo',
): Promise<LoadResult> {
  return runLoad({
    label,
    url: `http://127.0.0.1:${server.port}${path}`,
    connections: CONNECTIONS,
    durationS,
    bodies: BODIES,
  });
}

/** Prints a run and refuses it when any answer was not 2xx. */
export function check(r: LoadResult): LoadResult {
  console.log(formatLoad(r));
  if (r.non2xx + r.errors > 0)
    throw new Error(`${r.label}: ${r.non2xx} non-2xx answers and ${r.errors} errors`);
  return r;
}

/** A measured run's outcome and the server's CPU per answered request (null where unknown). */
export type Measured<R extends LoadResult> = R & { serverCpuUsPerRequest: number | null };

/** Runs a measured load, prints it with the CPU each party used, and refuses non-2xx answers. */
export async function measured<R extends LoadResult>(
  server: ChildServer,
  run: () => Promise<R>,
): Promise<Measured<R>> {
  const { result, cpu, serverCpuSeconds } = await withCpu(server.pid, run);
  check(result);
  const perRequest =
    serverCpuSeconds === null || result.requests === 0
      ? null
      : (serverCpuSeconds * 1e6) / result.requests;
  console.log(
    `  ${cpu}; server CPU per request ${perRequest === null ? 'n/a' : `${perRequest.toFixed(1)} µs`}`,
  );
  return { ...result, serverCpuUsPerRequest: perRequest };
}
