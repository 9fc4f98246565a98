import type { Principal } from '@verity/accounts';
import { VerityError } from '@verity/common';
import type { FeedbackRequestBody, FeedbackResult } from '@verity/contracts';
import type { CallInputs, FeedbackService } from '@verity/history';
import type { Engines } from '@verity/platform';
import { parseIp } from '@verity/validation';

/**
 * Records one outcome (POST /v1/feedback and the console's Outcomes page): by request_id, or by
 * values keyed exactly as verify keys them (the phone by the E.164 form its engine gives).
 */
export async function reportFeedback(
  feedback: FeedbackService,
  engines: Engines,
  principal: Principal,
  body: FeedbackRequestBody,
): Promise<FeedbackResult> {
  if (body.request_id !== undefined)
    return feedback.reportCall(principal, body.request_id.toLowerCase(), body.outcome);
  const inputs: CallInputs = { email: body.email };
  if (body.ip !== undefined) {
    const ip = parseIp(body.ip);
    if (ip === null)
      throw new VerityError('validation_error', 'ip must be an IPv4 or IPv6 address');
    inputs.ip = ip;
  }
  if (body.phone !== undefined)
    inputs.phone = await engines.phone.validate({ phone: body.phone, hlr: false });
  return feedback.reportValues(principal, inputs, body.outcome);
}
