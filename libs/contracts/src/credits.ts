/** Credit cost per operation, exactly the spec's table. */
export const CREDIT_COST = {
  email_validate: 1,
  phone_validate: 1,
  phone_validate_hlr: 5,
  ip_intel: 1,
  verify: 3,
  batch_row: 1,
} as const;
export type CreditOperation = keyof typeof CREDIT_COST;
