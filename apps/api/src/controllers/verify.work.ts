import { randomUUID } from 'node:crypto';
import type { VerifyRequest, VerifyResult } from '@verity/contracts';
import type { Engines } from '@verity/platform';
import { FRAUD_BASE, scoreFraud, type FraudReason } from '@verity/validation';

/** Nested results in a verify answer each report the credits of their own single call. */
const NESTED_CREDITS = 1;

export type VerifyAnswer = VerifyResult & { fraud_base?: number; reasons?: FraudReason[] };

/** The answer before BillingService adds the top-level credits_used. */
export type VerifyWork = Omit<VerifyAnswer, 'credits_used'>;

/**
 * The work of one verify call (charged by the caller): POST /v1/verify and the playground.
 * `engines` are the caller's mode's: ENGINES, or TEST_ENGINES for a test key.
 */
export async function runVerify(
  engines: Engines,
  body: VerifyRequest,
  explain: boolean,
): Promise<VerifyWork> {
  const ip = body.ip === undefined ? undefined : engines.ip.lookup(body.ip.trim());
  const [emailCheck, phone] = await Promise.all([
    body.email === undefined ? undefined : engines.email.check(body.email),
    body.phone === undefined
      ? undefined
      : engines.phone.validate({ phone: body.phone, hlr: false }),
  ]);
  const email = emailCheck?.fields;
  const score = scoreFraud({ email, phone, ip, emailDns: emailCheck?.dns });
  return {
    fraud_score: score.fraud_score,
    risk: score.risk,
    request_id: randomUUID(),
    ...(email && { email: { ...email, credits_used: NESTED_CREDITS } }),
    ...(phone && { phone: { ...phone, credits_used: NESTED_CREDITS } }),
    ...(ip && { ip: { ...ip, credits_used: NESTED_CREDITS } }),
    ...(explain && { fraud_base: FRAUD_BASE, reasons: score.reasons }),
  };
}
