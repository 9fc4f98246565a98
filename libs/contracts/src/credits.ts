/** Billable operations, in the order of the spec's table. */
export const CREDIT_OPERATIONS = [
  'email_validate',
  'phone_validate',
  'phone_validate_hlr',
  'ip_intel',
  'verify',
  'batch_row',
] as const;
export type CreditOperation = (typeof CREDIT_OPERATIONS)[number];

/** Credit cost per operation, exactly the spec's table. */
export const CREDIT_COST = {
  email_validate: 1,
  phone_validate: 1,
  phone_validate_hlr: 5,
  ip_intel: 1,
  verify: 3,
  batch_row: 1,
} as const satisfies Record<CreditOperation, number>;
