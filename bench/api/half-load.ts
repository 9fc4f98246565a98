import type { ChildServer } from '../support/child-server';
import { BODIES, VERITY_PATH } from '../support/api-bench.config';
import type { LoadResult } from '../support/load';
import { runPacedLoad, type PacedLoadResult } from '../support/paced-load';
import { formatStalls } from '../support/stall-monitor';
import { tcpRetransmits } from '../support/tcp-retransmits';
import { DURATION_S, FLOOR_PATH, measured, verityLoad, type Measured } from './measure';
import { medianRate, type SaturatedRound } from './saturated';

/** The paced (open-loop) client's socket pool: enough that no request waits for a socket. */
const PACED_SOCKETS = Number(process.env.BENCH_PACED_SOCKETS ?? 64);

/** The servers of the half-load runs; Verity is the metrics-on instance of the rounds. */
export interface HalfLoadServers {
  verity: ChildServer;
  floor: ChildServer;
  bare: ChildServer;
}

/**
 * Verity at half its saturating rate, two ways (autocannon's overallRate and the paced client),
 * then the framework floor and the bare server paced at the same rate, and each of those two
 * at half its own saturating rate: the same criterion applied to the baselines, which says
 * whether this machine lets any server meet it.
 */
export async function halfLoad(servers: HalfLoadServers, rounds: SaturatedRound[]): Promise<void> {
  const { verity, floor, bare } = servers;
  const halfRate = Math.round(medianRate(rounds, 'verity') / 2);
  const half = await measured(verity, () =>
    verityLoad(verity, 'autocannon overallRate (bursty, see note)', DURATION_S, halfRate),
  );
  const retransmitsBefore = await tcpRetransmits();
  const paced = await pacedRun(verity, 'paced open loop (even spacing)', halfRate);
  const retransmitsAfter = await tcpRetransmits();
  if (retransmitsBefore !== null && retransmitsAfter !== null)
    console.log(
      `  TCP segments retransmitted by the kernel during the paced run: ${retransmitsAfter - retransmitsBefore} (each waits the 200 ms minimum RTO on loopback)`,
    );
  console.log(
    'note: autocannon overallRate lets each connection send its per-second quota back to back, then idle until the next second; ' +
      `the paced run spreads the same rate evenly (a lean raw-socket HTTP/1.1 client, ${PACED_SOCKETS} keep-alive connections so that no request waits in the client for a free one)`,
  );
  const verdict = (r: LoadResult) => `${r.p99.toFixed(2)} ms ${r.p99 <= 10 ? 'MET' : 'NOT MET'}`;
  // The machine's own tail at that rate: the framework floor and the bare server, paced the
  // same way (the floor answers on Verity's path).
  const floorPaced = await pacedRun(
    floor,
    'framework floor, paced at the same rate',
    halfRate,
    FLOOR_PATH,
  );
  const barePaced = await pacedRun(
    bare,
    'bare fastify echo, paced at the same rate',
    halfRate,
    '/echo',
  );
  console.log(
    `p99 at half load (target <= 10 ms): paced ${verdict(paced)}; autocannon overallRate ${verdict(half)}; ` +
      `at the same paced rate the framework floor ${floorPaced.p99.toFixed(2)} ms and the bare server ${barePaced.p99.toFixed(2)} ms`,
  );
  const floorOwn = Math.round(medianRate(rounds, 'floor') / 2);
  const bareOwn = Math.round(medianRate(rounds, 'bare') / 2);
  const floorAtOwn = await pacedRun(
    floor,
    'framework floor at half its own rate',
    floorOwn,
    FLOOR_PATH,
  );
  const bareAtOwn = await pacedRun(
    bare,
    'bare fastify echo at half its own rate',
    bareOwn,
    '/echo',
  );
  console.log(
    `the same criterion for the baselines (paced at half their own saturating rate, target <= 10 ms): ` +
      `framework floor at ${floorOwn}/s ${verdict(floorAtOwn)}; bare fastify echo at ${bareOwn}/s ${verdict(bareAtOwn)}`,
  );
}

/**
 * A paced (open-loop) run against `server` at `rate`, with the server's event loop watched for
 * stalls; prints what the client and the server each did to the tail.
 */
async function pacedRun(
  server: ChildServer,
  label: string,
  rate: number,
  path = VERITY_PATH,
): Promise<Measured<PacedLoadResult>> {
  const { result: paced, report } = await server.stalls(() =>
    measured(server, () =>
      runPacedLoad({
        label,
        url: `http://127.0.0.1:${server.port}${path}`,
        rate,
        durationS: DURATION_S,
        maxSockets: PACED_SOCKETS,
        headers: server.apiKey === undefined ? {} : { 'x-api-key': server.apiKey },
        bodies: BODIES,
      }),
    ),
  );
  console.log(
    `  paced: latency from the scheduled send time (above, open loop, coordinated omission counted); ` +
      `from the actual send p99 ${paced.fromSendP99.toFixed(2)} ms max ${paced.fromSendMax.toFixed(2)} ms; ` +
      `client sent late by p99 ${paced.sendLagP99.toFixed(2)} ms max ${paced.sendLagMax.toFixed(2)} ms; ` +
      `waited for a socket of its pool (${PACED_SOCKETS}) p99 ${paced.poolWaitP99.toFixed(2)} ms max ${paced.poolWaitMax.toFixed(2)} ms; ` +
      `client event-loop delay p99 ${paced.clientLoopDelayP99.toFixed(2)} ms max ${paced.clientLoopDelayMax.toFixed(2)} ms`,
  );
  console.log(`  ${formatStalls(report)}`);
  return paced;
}
