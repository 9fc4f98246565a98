import assert from 'node:assert/strict';
import type { ExplainedVerifyResult, FeedbackOutcome } from '@verity/contracts';
import type { Signup, SimulationPorts, SimulationResult, TestClient } from '@verity/testing';

/** The simulation's verify and feedback calls through one API client. */
export function simulationPorts(client: TestClient, reportClient = client): SimulationPorts {
  return {
    async verify(signup: Signup) {
      const res = await client.post('/v1/verify?explain=true', {
        email: signup.email,
        phone: signup.phone,
        ip: signup.ip,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as ExplainedVerifyResult;
    },
    async report(requestId: string, outcome: FeedbackOutcome) {
      const res = await reportClient.post('/v1/feedback', { request_id: requestId, outcome });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    },
  };
}

/**
 * The targets on the calls after the first 60 %: AUC ≥ 0.90, ≥ 80 % of ring sign-ups
 * caught at 5 % false positives, and the office not at high risk once some of its calls were
 * reported legitimate; the static signals alone must not tell the groups apart.
 */
export function assertSimulationTargets(
  result: SimulationResult,
  unreported: SimulationResult,
  print: (line: string) => void,
): void {
  const pct = (x: number) => `${(100 * x).toFixed(1)} %`;
  const officeLater = (r: SimulationResult) => r.later.filter((s) => s.kind === 'office');
  const mean = (r: SimulationResult) =>
    officeLater(r).reduce((sum, s) => sum + s.answer.fraud_score, 0) / officeLater(r).length;
  const risks = (r: SimulationResult) =>
    (['low', 'medium', 'high'] as const)
      .map((risk) => `${officeLater(r).filter((s) => s.answer.risk === risk).length} ${risk}`)
      .join(', ');
  const line = (r: SimulationResult) =>
    `AUC ${r.auc.toFixed(3)}, ${pct(r.atFivePercent.caught)} of ring sign-ups caught at score >= ` +
    `${r.atFivePercent.threshold} (${pct(r.atFivePercent.falsePositives)} false positives); ` +
    `office mean ${mean(r).toFixed(1)} (${risks(r)})`;
  print(
    `${result.scored.length} calls, ${result.reported} outcomes reported, ${result.later.length} measured ` +
      `(${result.later.filter((s) => s.kind === 'ring').length} ring sign-ups, ${officeLater(result).length} office)`,
  );
  print(`with reports: ${line(result)}`);
  print(`velocity only (another account, nothing reported): ${line(unreported)}`);
  const flagged = unreported.later.filter(
    (s) => s.kind !== 'ring' && s.answer.fraud_score >= unreported.atFivePercent.threshold,
  );
  const count = (keys: string[]) => {
    const counts: Record<string, number> = {};
    for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
    return JSON.stringify(counts);
  };
  print(
    `velocity only, its false positives: ${count(flagged.map((s) => s.kind))}, their history reasons ` +
      count(
        flagged.flatMap((s) => s.answer.reasons.filter((r) => r.points > 0).map((r) => r.code)),
      ),
  );
  print(
    `static signals alone: AUC ${result.staticAuc.toFixed(3)}, ${pct(result.staticAtFivePercent.caught)} caught at 5 % false positives`,
  );
  assert.ok(result.staticAuc < 0.6, `static signals separate the groups: AUC ${result.staticAuc}`);
  assert.ok(result.auc >= 0.9, `AUC ${result.auc}`);
  assert.ok(result.atFivePercent.caught >= 0.8, `caught ${result.atFivePercent.caught}`);
  assert.ok(officeLater(result).length > 0);
  assert.deepEqual(
    officeLater(result)
      .filter((s) => s.answer.risk === 'high')
      .map((s) => s.answer.fraud_score),
    [],
    'office sign-ups still at high risk after legitimate reports',
  );
  assert.ok(mean(result) < mean(unreported), 'the legitimate reports did not lower the office');
}

/**
 * Calls a second account makes with the first account's ring and office values: the same
 * answers before and after the first account's stream and reports mean its traffic and
 * outcomes moved nothing of the second's.
 */
export function isolationProbes(stream: readonly Signup[]): {
  run(client: TestClient): Promise<unknown[]>;
} {
  // One probe per ring and the office, and three honest users: no two probes share a value, so
  // the probes' own history is the same on both runs.
  const rings = [0, 1, 2].map((ring) => stream.find((s) => s.ring === ring)!);
  const office = stream.find((s) => s.kind === 'office')!;
  const honest = stream.filter((s) => s.kind === 'honest').slice(0, 3);
  const bodies = [...rings, office, ...honest].map((s, i) => ({
    email: `probe${i}@example.com`,
    phone: s.phone,
    ip: s.ip,
  }));
  return {
    async run(client) {
      const answers: unknown[] = [];
      for (const body of bodies) {
        const res = await client.post('/v1/verify?explain=true', body);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        const { fraud_score, risk, reasons } = res.body as ExplainedVerifyResult;
        answers.push({ body, fraud_score, risk, reasons });
      }
      return answers;
    },
  };
}
