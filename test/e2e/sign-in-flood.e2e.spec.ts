import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import {
  ConsoleClient,
  CONSOLE_PASSWORD,
  consoleUser,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import type { AttackOrders, AttackReport } from './sign-in-flood.attacker';

/** How long the flood lasts (bounded: it runs in `npm test`, on 2 shared cores). */
const FLOOD_MS = Number(process.env.SIGN_IN_FLOOD_MS ?? 12_000);
/** Another account's calls are timed this long before the flood too: the quiet baseline. */
const QUIET_MS = 3_000;
/** Attacking addresses (127.0.0.10 …) and sign-ins each keeps in flight. */
const ATTACKERS = 40;
const IN_FLIGHT = 4;

interface Answer {
  status: number;
  ms: number;
}

/** One HTTP exchange on `agent` (bound to its source address); status and time taken. */
function send(
  agent: Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      { agent, host: base.hostname, port: base.port, method, path, headers },
      (res) => {
        res.resume();
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }),
        );
      },
    );
    // A connection the server closed (the per-address cap) is an answer too: status 0.
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))];

/**
 * A sign-in flood from many loopback addresses, guessing one account's password and trying
 * unknown emails, while another account calls the API and the real user signs in from the
 * browser it used before; a JSON body trickled meanwhile. Asserts what must hold (no 5xx, the
 * real user in, guesses capped, the trickle cut) and prints the figures (docs/operations.md).
 */
describe('a sign-in flood starves nobody', () => {
  let stack: TestStack;
  let base: URL;

  before(async () => {
    stack = await startTestStack();
    base = new URL(stack.client.baseUrl);
  });
  after(() => stack.close());

  it('guesses are capped, the API and the real user are served, a trickled body is cut', async (t) => {
    const { browser } = await consoleUser(stack, 10, 'victim@flood.test');
    const { apiKey } = await stack.account(1_000_000, 'bystander');
    const origin = stack.client.baseUrl;
    let deadline = 0;

    // The attackers, on a thread of their own (sign-in-flood.attacker.ts).
    const attackers = (durationMs: number) =>
      new Promise<AttackReport>((resolve, reject) => {
        const orders: AttackOrders = {
          base: stack.client.baseUrl,
          origin,
          victim: 'victim@flood.test',
          addresses: Array.from({ length: ATTACKERS }, (_, i) => `127.0.0.${10 + i}`),
          inFlight: IN_FLIGHT,
          durationMs,
        };
        const worker = new Worker(join(__dirname, 'sign-in-flood.attacker.js'), {
          workerData: orders,
        });
        worker.once('message', (report: AttackReport) => {
          resolve(report);
          void worker.terminate();
        });
        worker.once('error', reject);
      });

    // Another account's calls, a pair every 50 ms (under its key's rate limit), until `until`.
    const bystander = async (until: () => number, into: Answer[]) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1, localAddress: '127.0.0.3' });
      const headers = { 'x-api-key': apiKey, 'content-type': 'application/json' };
      const ip = JSON.stringify({ ip: '8.8.8.8' });
      while (performance.now() < until()) {
        into.push(await send(agent, base, 'GET', '/v1/ping', headers));
        into.push(await send(agent, base, 'POST', '/v1/ip/intel', headers, ip));
        await new Promise((r) => setTimeout(r, 50));
      }
      agent.destroy();
    };
    // The baseline: the same calls for QUIET_MS before the flood, in the same run.
    const quiet: Answer[] = [];
    const quietUntil = performance.now() + QUIET_MS;
    await bystander(() => quietUntil, quiet);
    deadline = performance.now() + FLOOD_MS;
    const api: Answer[] = [];

    // The real user signs in from its trusted browser now and then during the flood.
    const signIns: Answer[] = [];
    const realUser = async () => {
      for (let i = 0; i < 3; i++) {
        await new Promise((r) => setTimeout(r, FLOOD_MS / 4));
        const started = performance.now();
        const res = await browser.login('victim@flood.test', CONSOLE_PASSWORD);
        signIns.push({ status: res.status, ms: performance.now() - started });
      }
    };

    // A JSON body trickled a byte a second from yet another address.
    const trickle = new Promise<{ status: string; seconds: number }>((resolve) => {
      const started = performance.now();
      const body = JSON.stringify({ email: 'slow@flood.test', password: 'x'.repeat(40) });
      const socket = connect({
        host: base.hostname,
        port: Number(base.port),
        localAddress: '127.0.0.4',
      });
      let answer = '';
      let timer: NodeJS.Timeout | undefined;
      socket.on('data', (d) => (answer += d.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearTimeout(timer);
        resolve({ status: answer.slice(9, 12), seconds: (performance.now() - started) / 1000 });
      });
      socket.write(
        `POST /console/api/auth/login HTTP/1.1\r\nHost: x\r\nOrigin: ${origin}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      );
      let sent = 0;
      const next = () => {
        if (socket.destroyed || sent >= body.length) return;
        socket.write(body[sent++]);
        timer = setTimeout(next, 1_000);
      };
      next();
    });

    const started = performance.now();
    const [report] = await Promise.all([
      attackers(FLOOD_MS),
      bystander(() => deadline, api),
      realUser(),
    ]);
    const outcomes = new Map(Object.entries(report.outcomes));
    const { victimChecked } = report;
    const minutes = (performance.now() - started) / 60_000;
    const cut = await trickle;

    const attempts = [...outcomes.values()].reduce((a, b) => a + b, 0);
    const checked = outcomes.get('401') ?? 0;
    t.diagnostic(
      `flood: ${ATTACKERS} addresses × ${IN_FLIGHT} in flight for ${(minutes * 60).toFixed(1)} s: ${attempts} sign-ins (${(attempts / minutes / 60).toFixed(0)} a second), answers ${JSON.stringify(Object.fromEntries(outcomes))}`,
    );
    t.diagnostic(
      `passwords checked: ${(checked / minutes).toFixed(0)} a minute in all; the victim's ${victimChecked} (its budget of ${stack.config.CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL}, then none: at most ${stack.config.CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL} per ${stack.config.CONSOLE_LOGIN_WINDOW_SECONDS} s from then on)`,
    );
    const latency = (answers: Answer[]) => {
      const ms = answers.map((a) => a.ms);
      return `${answers.length} calls, p50 ${percentile(ms, 0.5).toFixed(0)} ms, p99 ${percentile(ms, 0.99).toFixed(0)} ms, worst ${Math.max(...ms).toFixed(0)} ms`;
    };
    t.diagnostic(`another account's API calls before the flood: ${latency(quiet)}`);
    t.diagnostic(
      `… during the flood: ${latency(api)}; worst / worst before ${(Math.max(...api.map((a) => a.ms)) / Math.max(...quiet.map((a) => a.ms))).toFixed(1)}`,
    );
    t.diagnostic(
      `the real user's sign-ins from its browser: ${signIns.map((s) => `${s.status} in ${s.ms.toFixed(0)} ms`).join(', ')}`,
    );
    t.diagnostic(
      `a JSON body trickled a byte a second: ${cut.status} after ${cut.seconds.toFixed(1)} s`,
    );

    // No answer is a server error, to anyone.
    for (const status of outcomes.keys())
      assert.ok(Number(status) < 500, `a sign-in answered ${status}`);
    assert.deepEqual(
      api.filter((a) => a.status !== 200),
      [],
      'every API call of the other account succeeded',
    );
    // The real user got in every time; the victim's password was checked at most its budget's
    // times (plus what refilled while the flood lasted).
    assert.deepEqual(
      signIns.map((s) => s.status),
      [200, 200, 200],
    );
    const budget = stack.config.CONSOLE_LOGIN_MAX_FAILURES_PER_EMAIL;
    const refilled = Math.ceil((budget * minutes * 60) / stack.config.CONSOLE_LOGIN_WINDOW_SECONDS);
    assert.ok(victimChecked <= budget + refilled, `${victimChecked} guesses were checked`);
    assert.ok((outcomes.get('429') ?? 0) > 0, 'the flood was refused');
    assert.equal(cut.status, '408');
    // Nothing lasting: a stranger's right password works once the flood is over.
    const fresh = await new ConsoleClient(origin).login('victim@flood.test', CONSOLE_PASSWORD);
    assert.ok([200, 429].includes(fresh.status));
  });
});
