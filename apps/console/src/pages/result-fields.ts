import type { PlaygroundVerifyResult } from '@verity/contracts/console-routes';
import type { EmailResult, IpResult, PhoneResult } from '@verity/contracts/results';

/** A value as one row of a playground answer shows it. */
export type FactValue = string | number | boolean | null | undefined;
export type Fact = [label: string, value: FactValue];
export type FactGroup = [title: string, facts: Fact[]];

/**
 * How each field of a result is shown, in the order shown: a label (the field's own value), a
 * label with the value worked out from the result (two fields in one row, a nested object), or
 * null for a field another row or the verdict line already shows. The keys are every field of
 * the contract's type, so a field added in libs/contracts/src/results.ts is a compile error here
 * until it is given a row or a place.
 */
export type FieldRows<R> = {
  [K in keyof Required<R>]: (R[K] extends FactValue ? string : never) | ComputedRow<R> | null;
};
interface ComputedRow<R> {
  label: string;
  show: (result: R) => FactValue;
}

export function facts<R>(result: R, rows: FieldRows<R>): Fact[] {
  const shown: Fact[] = [];
  for (const key of Object.keys(rows) as (keyof R)[]) {
    const row = rows[key];
    if (typeof row === 'string') shown.push([row, result[key] as FactValue]);
    else if (row) shown.push([row.label, row.show(result)]);
  }
  return shown;
}

export const EMAIL_ROWS: FieldRows<EmailResult> = {
  input: 'Address',
  deliverability: 'Deliverability',
  score: 'Score',
  valid_syntax: 'Valid syntax',
  mx_found: 'Mail server (MX)',
  disposable: 'Disposable',
  role_based: 'Role address',
  free_provider: 'Free provider',
  did_you_mean: 'Did you mean',
  credits_used: 'Credits used',
};

export const PHONE_ROWS: FieldRows<PhoneResult> = {
  input: { label: 'Number', show: (phone) => phone.e164 ?? phone.input },
  e164: null, // in Number
  valid: 'Valid',
  score: 'Score',
  country: 'Country',
  line_type: 'Line type',
  carrier: 'Carrier',
  hlr: { label: 'HLR', show: (phone) => (phone.hlr ? phone.hlr.status : 'not requested') },
  credits_used: 'Credits used',
};

export const IP_ROWS: FieldRows<IpResult> = {
  input: 'Address',
  abuse_score: 'Abuse score',
  country: 'Country',
  city: 'City',
  asn: {
    label: 'Network',
    show: (ip) => (ip.asn === null ? null : `AS${ip.asn} ${ip.asn_org ?? ''}`.trim()),
  },
  asn_org: null, // in Network
  vpn: 'VPN',
  proxy: 'Proxy',
  tor: 'Tor',
  datacenter: 'Data centre',
  credits_used: 'Credits used',
};

/**
 * The groups of a verify answer, in the order shown: each field gives a group of rows, or is
 * shown elsewhere (null). Its signals reuse the single calls' rows.
 */
export const VERIFY_GROUPS: {
  [K in keyof Required<PlaygroundVerifyResult>]:
    ((v: PlaygroundVerifyResult) => FactGroup | undefined) | null;
} = {
  fraud_score: null, // the verdict line
  risk: null, // the verdict line
  fraud_base: null, // the reasons start from it; in the JSON answer
  reasons: null, // the Reasons list
  email: (v) => v.email && ['Email', facts(v.email, EMAIL_ROWS)],
  phone: (v) => v.phone && ['Phone', facts(v.phone, PHONE_ROWS)],
  ip: (v) => v.ip && ['IP address', facts(v.ip, IP_ROWS)],
  history: null, // in the JSON answer
  // The id to report the call's outcome with on the Outcomes page.
  request_id: (v) => ['Call', [['request_id', v.request_id]]],
  credits_used: null, // the form names the cost
};

export function verifyGroups(verify: PlaygroundVerifyResult): FactGroup[] {
  return Object.values(VERIFY_GROUPS)
    .map((group) => group?.(verify))
    .filter((group): group is FactGroup => group !== undefined);
}
