/** Billable operations (`verity_credits_consumed_total{operation}`). */
export const CREDIT_OPERATIONS = [
  'email_validate',
  'phone_validate',
  'phone_validate_hlr',
  'ip_intel',
  'verify',
  'batch_row',
] as const;
export type CreditOperation = (typeof CREDIT_OPERATIONS)[number];

/** What each billable operation costs, in credits (README, "Try it", shows it beside each call). */
export const CREDIT_COST = {
  email_validate: 1,
  phone_validate: 1,
  phone_validate_hlr: 5,
  ip_intel: 1,
  verify: 3,
  batch_row: 1,
} as const satisfies Record<CreditOperation, number>;
