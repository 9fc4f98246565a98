import { randomUUID } from 'node:crypto';
import type { VerifyHistoryView, VerifyRequest, VerifyResult } from '@verity/contracts';
import type { Principal } from '@verity/accounts';
import { historyView, type VerifyHistory } from '@verity/history';
import type { Engines } from '@verity/platform';
import { FRAUD_BASE, parseIp, scoreFraud, type FraudReason } from '@verity/validation';

/** Nested results in a verify answer each report the credits of their own single call. */
const NESTED_CREDITS = 1;

export type VerifyAnswer = VerifyResult & {
  fraud_base?: number;
  reasons?: FraudReason[];
  history?: VerifyHistoryView;
};

/** The answer before BillingService adds the top-level credits_used. */
export type VerifyWork = Omit<VerifyAnswer, 'credits_used'>;

/**
 * The work of one verify call (charged by the caller): POST /v1/verify and the playground.
 * `engines` are the caller's mode's: ENGINES, or TEST_ENGINES for a test key. The call's values
 * are recorded in the account's history and their history enters the score (docs/history.md).
 */
export async function runVerify(
  engines: Engines,
  history: VerifyHistory,
  principal: Principal,
  body: VerifyRequest,
  explain: boolean,
): Promise<VerifyWork> {
  const requestId = randomUUID();
  const at = Date.now();
  const ip = body.ip === undefined ? undefined : engines.ip.lookup(body.ip.trim());
  const phoneCheck =
    body.phone === undefined
      ? undefined
      : engines.phone.validate({
          phone: body.phone,
          country_hint: body.country_hint?.toUpperCase(),
          hlr: false,
        });
  // The history is read while the email's DNS answer is awaited: the phone is offline.
  const observing = Promise.resolve(phoneCheck).then((phone) =>
    history.observe(
      principal,
      {
        email: body.email,
        phone,
        ip: body.ip === undefined ? undefined : (parseIp(body.ip) ?? undefined),
      },
      requestId,
      at,
    ),
  );
  const [emailCheck, phone, call] = await Promise.all([
    body.email === undefined ? undefined : engines.email.check(body.email),
    phoneCheck,
    observing,
  ]);
  const email = emailCheck?.fields;
  const score = scoreFraud({ email, phone, ip, emailDns: emailCheck?.dns, history: call.history });
  history.record(call, score);
  return {
    fraud_score: score.fraud_score,
    risk: score.risk,
    request_id: requestId,
    ...(email && { email: { ...email, credits_used: NESTED_CREDITS } }),
    ...(phone && { phone: { ...phone, credits_used: NESTED_CREDITS } }),
    ...(ip && { ip: { ...ip, credits_used: NESTED_CREDITS } }),
    ...(explain && { fraud_base: FRAUD_BASE, reasons: score.reasons, history: historyView(call) }),
  };
}
