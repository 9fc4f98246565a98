// Runs a simulated sign-up stream against a Verity (embedded or several API processes) and
// measures it as docs/history.md describes: outcomes reported for part of the first 60 % of the
// calls, detection measured on the rest.
import type { ExplainedVerifyResult, FeedbackOutcome } from '@verity/contracts';
import { scoreFraud } from '@verity/validation';
import { SeededRandom } from '../seeded-random';
import { catchRateAt, pairwiseAuc } from './detection';
import type { Signup } from './signup-stream';

/** How the simulation reaches the server. */
export interface SimulationPorts {
  /** POST /v1/verify?explain=true with the sign-up's email, phone and ip. */
  verify(signup: Signup): Promise<ExplainedVerifyResult>;
  /** POST /v1/feedback by request_id. */
  report(requestId: string, outcome: FeedbackOutcome): Promise<void>;
}

export interface SimulationOptions {
  seed: number;
  /** Calls whose outcomes may be reported: this share of the stream, from its start. */
  learnShare: number;
  /** Of those, the share reported. */
  reportShare: number;
  /** A report is sent this many calls after its call (outcomes arrive late). */
  reportDelay: number;
}

export const SIMULATION_OPTIONS: SimulationOptions = {
  seed: 51,
  learnShare: 0.6,
  reportShare: 0.5,
  reportDelay: 50,
};

export interface ScoredSignup extends Signup {
  answer: ExplainedVerifyResult;
  /** The score the call's results alone give (its history reasons left out). */
  staticScore: number;
}

export interface SimulationResult {
  scored: ScoredSignup[];
  reported: number;
  /** The calls measured: those after the learning share. */
  later: ScoredSignup[];
  auc: number;
  staticAuc: number;
  /** At 5 % false positives on the later calls. */
  atFivePercent: ReturnType<typeof catchRateAt>;
  staticAtFivePercent: ReturnType<typeof catchRateAt>;
}

const isFraud = (s: Signup) => s.kind === 'ring';

/** The fraud model on the answer's own results, without the account's history. */
function staticScore(answer: ExplainedVerifyResult): number {
  return scoreFraud({ email: answer.email, phone: answer.phone, ip: answer.ip }).fraud_score;
}

/** Sends the stream in order, reports the chosen outcomes late, and measures the later calls. */
export async function runSignupSimulation(
  stream: readonly Signup[],
  ports: SimulationPorts,
  options: SimulationOptions = SIMULATION_OPTIONS,
): Promise<SimulationResult> {
  const r = new SeededRandom(options.seed);
  const learnEnd = Math.floor(stream.length * options.learnShare);
  const pending: ScoredSignup[] = [];
  const scored: ScoredSignup[] = [];
  let reported = 0;
  const sendReports = async (upTo: number) => {
    while (pending.length > 0 && pending[0].index <= upTo) {
      const call = pending.shift()!;
      await ports.report(call.answer.request_id, isFraud(call) ? 'fraud' : 'legitimate');
      reported++;
    }
  };
  for (const signup of stream) {
    const answer = await ports.verify(signup);
    const call = { ...signup, answer, staticScore: staticScore(answer) };
    scored.push(call);
    if (signup.index < learnEnd && r.next() < options.reportShare) pending.push(call);
    await sendReports(signup.index < learnEnd ? signup.index - options.reportDelay : Infinity);
  }
  await sendReports(Infinity);
  const later = scored.slice(learnEnd);
  const scores = (f: (s: ScoredSignup) => number, fraud: boolean) =>
    later.filter((s) => isFraud(s) === fraud).map(f);
  const live = (s: ScoredSignup) => s.answer.fraud_score;
  return {
    scored,
    reported,
    later,
    auc: pairwiseAuc(scores(live, true), scores(live, false)),
    staticAuc: pairwiseAuc(
      scores((s) => s.staticScore, true),
      scores((s) => s.staticScore, false),
    ),
    atFivePercent: catchRateAt(scores(live, true), scores(live, false), 0.05),
    staticAtFivePercent: catchRateAt(
      scores((s) => s.staticScore, true),
      scores((s) => s.staticScore, false),
      0.05,
    ),
  };
}
