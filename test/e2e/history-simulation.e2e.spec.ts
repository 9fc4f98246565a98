// The account's history on a simulated sign-up stream, embedded (one process, the in-memory
// history store): docs/history.md, "How it is tested". The distributed run is
// test/distributed/history.distributed.spec.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  SIMULATION_OPTIONS,
  runSignupSimulation,
  signupStream,
  startTestStack,
  type TestStack,
} from '@verity/testing';
import { assertSimulationTargets, isolationProbes, simulationPorts } from './history-helpers';

void describe('history: a simulated sign-up stream, embedded', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: { RATE_LIMIT_PER_SECOND: '100000', RATE_LIMIT_BURST: '100000' },
    });
  });
  after(() => stack?.close());

  void it('learns rings from velocity and reports, spares the office, moves no other account', async (t) => {
    const stream = signupStream(51);
    const first = await stack.account(20_000, 'first');
    const unreported = await stack.account(20_000, 'unreported');
    const second = await stack.account(1_000, 'second');
    const probes = isolationProbes(stream);
    const before = await probes.run(second.client);
    const result = await runSignupSimulation(stream, simulationPorts(first.client));
    const control = await runSignupSimulation(stream, simulationPorts(unreported.client), {
      ...SIMULATION_OPTIONS,
      reportShare: 0,
    });
    assertSimulationTargets(result, control, (line) => t.diagnostic(line));
    assert.deepEqual(await probes.run(second.client), before, "the second account's scores moved");
  });
});
