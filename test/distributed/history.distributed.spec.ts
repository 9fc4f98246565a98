// The account's history with two API processes sharing Redis (the history store) and
// PostgreSQL: velocity counted across both, outcomes reported on one moving scores on the
// other, the simulated sign-up stream's targets met, another account untouched.
import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { ExplainedVerifyResult } from '@verity/contracts';
import {
  SIMULATION_OPTIONS,
  TestClient,
  runSignupSimulation,
  signupStream,
  type SimulationPorts,
} from '@verity/testing';
import { assertSimulationTargets, isolationProbes, simulationPorts } from '../e2e/history-helpers';
import { createAccount, distributedSuite, startCluster, type Cluster } from './cluster';

distributedSuite('history on two API instances sharing Redis', () => {
  let cluster: Cluster;
  let first: TestClient;
  let second: TestClient;

  /** Each sign-up goes to one instance in turn; its report to the other one. */
  function alternating(key: string): SimulationPorts {
    const ports = [simulationPorts(first.withKey(key)), simulationPorts(second.withKey(key))];
    const servedBy = new Map<string, number>();
    return {
      async verify(signup) {
        const answer = await ports[signup.index % 2].verify(signup);
        servedBy.set(answer.request_id, signup.index % 2);
        return answer;
      },
      report: (requestId, outcome) =>
        ports[1 - (servedBy.get(requestId) ?? 0)].report(requestId, outcome),
    };
  }

  before(async () => {
    cluster = await startCluster('history', {
      credits: 1_000,
      // A day's retention: the shared Redis drops the run's values within a day.
      env: {
        RATE_LIMIT_PER_SECOND: '100000',
        RATE_LIMIT_BURST: '100000',
        HISTORY_RETENTION_DAYS: '1',
      },
    });
    first = new TestClient(cluster.client.baseUrl);
    second = new TestClient(`http://127.0.0.1:${(await cluster.startApi('api-2')).port}`);
  });
  after(() => cluster?.close());

  it('counts one address across both instances', async () => {
    const client = (i: number) => (i % 2 === 0 ? first : second).withKey(cluster.apiKey);
    let last: ExplainedVerifyResult | undefined;
    for (let i = 0; i < 6; i++) {
      const res = await client(i).post('/v1/verify?explain=true', {
        email: `shared${i}@example.com`,
        ip: '86.150.200.1',
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      last = res.body as ExplainedVerifyResult;
    }
    assert.deepEqual(last!.history.ip!.linked, { '1h': 6, '24h': 6, '30d': 6 });
    const reported = await first
      .withKey(cluster.apiKey)
      .post('/v1/feedback', { request_id: last!.request_id, outcome: 'fraud' });
    assert.equal(reported.status, 200, JSON.stringify(reported.body));
    const after = await second
      .withKey(cluster.apiKey)
      .post('/v1/verify?explain=true', { ip: '86.150.200.1' });
    assert.ok(
      (after.body as ExplainedVerifyResult).reasons.some((r) => r.code === 'ip_reported_fraud'),
    );
  });

  it('meets the sign-up stream targets with the calls and reports spread over both', async (t) => {
    const stream = signupStream(52);
    const learning = await createAccount(first, 'learning', 20_000);
    const unreported = await createAccount(first, 'unreported', 20_000);
    const bystander = await createAccount(first, 'bystander', 1_000);
    const probes = isolationProbes(stream);
    const before = await probes.run(second.withKey(bystander.api_key));
    const result = await runSignupSimulation(stream, alternating(learning.api_key));
    const control = await runSignupSimulation(stream, alternating(unreported.api_key), {
      ...SIMULATION_OPTIONS,
      reportShare: 0,
    });
    assertSimulationTargets(result, control, (line) => t.diagnostic(line));
    assert.deepEqual(await probes.run(first.withKey(bystander.api_key)), before);
  });
});
