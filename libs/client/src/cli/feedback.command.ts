import { FEEDBACK_OUTCOMES, type FeedbackOutcome } from '@verity/contracts/wire';
import { printResult } from './output';
import { connect, parse } from './options';
import { UsageError } from './usage.error';

const USAGE =
  'verity feedback REQUEST_ID --outcome fraud|legitimate | ' +
  'verity feedback [--email E] [--phone P] [--ip I] --outcome fraud|legitimate | verity feedback stats';

/**
 * `verity feedback`: report how a verify call turned out (by its request_id, or by values), or
 * print what the reported outcomes say about the scores (`stats`).
 */
export async function feedbackCommand(argv: string[]): Promise<void> {
  const { values, positionals } = parse(argv, {
    outcome: { type: 'string' },
    email: { type: 'string' },
    phone: { type: 'string' },
    ip: { type: 'string' },
  });
  const byValue =
    values.email !== undefined || values.phone !== undefined || values.ip !== undefined;
  if (positionals.length === 1 && positionals[0] === 'stats') {
    if (values.outcome !== undefined || byValue) throw new UsageError(`usage: ${USAGE}`);
    const { verity, json } = connect(values);
    return printResult(await verity.feedback.stats(), json);
  }
  if (positionals.length > 1 || (positionals.length === 1) === byValue)
    throw new UsageError(`give a request_id or --email/--phone/--ip; usage: ${USAGE}`);
  const outcome = values.outcome as FeedbackOutcome | undefined;
  if (outcome === undefined || !FEEDBACK_OUTCOMES.includes(outcome))
    throw new UsageError(
      `--outcome must be one of ${FEEDBACK_OUTCOMES.join(', ')}; usage: ${USAGE}`,
    );
  const { verity, json } = connect(values);
  const call =
    positionals.length === 1
      ? positionals[0]
      : { email: values.email, phone: values.phone, ip: values.ip };
  return printResult(await verity.feedback.report(call, outcome), json);
}
