// The attackers of sign-in-flood.e2e.spec.ts, on a worker thread of their own so that their
// clients never share the server's event loop (on a real attack they are other machines).
import { randomBytes } from 'node:crypto';
import { Agent, request } from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** What the test asks of the attackers. */
export interface AttackOrders {
  base: string;
  origin: string;
  victim: string;
  addresses: string[];
  inFlight: number;
  durationMs: number;
}

/** What they report: answers by status, and how many guesses for the victim were checked (401). */
export interface AttackReport {
  outcomes: Record<string, number>;
  victimChecked: number;
  ms: number;
}

function login(agent: Agent, orders: AttackOrders, body: string): Promise<number> {
  const base = new URL(orders.base);
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: 'POST',
        path: '/console/api/auth/login',
        headers: { 'content-type': 'application/json', origin: orders.origin },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    // A connection the server closed is an answer too: status 0.
    req.on('error', () => resolve(0));
    req.end(body);
  });
}

/**
 * Each address keeps `inFlight` sign-ins going until the time is up, alternately guessing the
 * victim's password and trying an unknown email.
 */
async function attack(orders: AttackOrders): Promise<AttackReport> {
  const outcomes: Record<string, number> = {};
  let victimChecked = 0;
  const started = performance.now();
  const deadline = started + orders.durationMs;
  await Promise.all(
    orders.addresses.map(async (address) => {
      const agent = new Agent({
        keepAlive: true,
        maxSockets: orders.inFlight,
        localAddress: address,
      });
      let n = 0;
      const loop = async () => {
        while (performance.now() < deadline) {
          const victim = n++ % 2 === 0;
          const email = victim ? orders.victim : `${randomBytes(6).toString('hex')}@flood.test`;
          const status = await login(
            agent,
            orders,
            JSON.stringify({ email, password: randomBytes(8).toString('hex') }),
          );
          outcomes[status] = (outcomes[status] ?? 0) + 1;
          if (victim && status === 401) victimChecked++;
        }
      };
      await Promise.all(Array.from({ length: orders.inFlight }, loop));
      agent.destroy();
    }),
  );
  return { outcomes, victimChecked, ms: performance.now() - started };
}

if (parentPort)
  void attack(workerData as AttackOrders).then((report) => parentPort!.postMessage(report));
