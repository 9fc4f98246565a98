// The magic inputs of test keys (docs/test-mode.md): fixed answers that integrators assert on.
// They are a public contract: an answer here never changes, whatever the engines' models do
// (magic-inputs.spec.ts keeps the doc's tables equal to these).
import type { EmailFields, HlrResult, IpFields, PhoneFields } from '@verity/contracts';
import { parseIp } from '../ip/ip-address';

/** A magic address's answer: every EmailFields field but the echoed input. */
export type MagicEmail = Omit<EmailFields, 'input'>;

/** A magic number's answer; `hlr` and `hlr_score` apply when the call asked `hlr: true`. */
export interface MagicPhone {
  fields: Omit<PhoneFields, 'input' | 'hlr'>;
  hlr: HlrResult;
  hlr_score: number;
}

/** A magic address's answer: every IpFields field but the echoed input. */
export type MagicIp = Omit<IpFields, 'input'>;

const mailbox = (fields: Partial<MagicEmail> & Pick<MagicEmail, 'deliverability' | 'score'>) => ({
  valid_syntax: true,
  mx_found: true,
  disposable: false,
  role_based: false,
  free_provider: false,
  did_you_mean: null,
  ...fields,
});

/** Magic addresses, lower case (matched case-insensitively after the syntax check). */
export const MAGIC_EMAILS: Readonly<Record<string, MagicEmail>> = {
  'deliverable@example.com': mailbox({ deliverability: 'deliverable', score: 100 }),
  'undeliverable@example.com': mailbox({ deliverability: 'undeliverable', score: 10 }),
  'risky@example.com': mailbox({ mx_found: false, deliverability: 'risky', score: 69 }),
  'unknown@example.com': mailbox({ deliverability: 'unknown', score: 60 }),
  'disposable@example.com': mailbox({ disposable: true, deliverability: 'risky', score: 40 }),
  'admin@example.com': mailbox({ role_based: true, deliverability: 'risky', score: 69 }),
  'catchall@example.com': mailbox({ deliverability: 'risky', score: 69 }),
  'nomail@example.com': mailbox({ mx_found: false, deliverability: 'undeliverable', score: 10 }),
};

const US_NUMBER = (e164: string, line_type: PhoneFields['line_type'], score: number) => ({
  valid: true,
  e164,
  country: 'US',
  line_type,
  carrier: null,
  score,
});
const NO_HLR_ANSWER: HlrResult = { status: 'unavailable', ported: null, roaming: null };
const live = (ported: boolean, roaming: boolean): HlrResult => ({
  status: 'active',
  ported,
  roaming,
});

/** Magic numbers in E.164; they override libphonenumber (which reads +1 500 as personal numbers). */
export const MAGIC_PHONES: Readonly<Record<string, MagicPhone>> = {
  '+15005550006': {
    fields: US_NUMBER('+15005550006', 'mobile', 75),
    hlr: live(false, false),
    hlr_score: 95,
  },
  '+15005550001': {
    fields: {
      valid: false,
      e164: null,
      country: null,
      line_type: 'unknown',
      carrier: null,
      score: 10,
    },
    hlr: NO_HLR_ANSWER,
    hlr_score: 10,
  },
  '+15005550007': {
    fields: US_NUMBER('+15005550007', 'landline', 70),
    hlr: NO_HLR_ANSWER,
    hlr_score: 70,
  },
  '+15005550008': {
    fields: US_NUMBER('+15005550008', 'voip', 45),
    hlr: NO_HLR_ANSWER,
    hlr_score: 45,
  },
  '+15005550009': {
    fields: US_NUMBER('+15005550009', 'mobile', 75),
    hlr: { status: 'inactive', ported: false, roaming: false },
    hlr_score: 15,
  },
  '+15005550010': {
    fields: US_NUMBER('+15005550010', 'mobile', 75),
    hlr: NO_HLR_ANSWER,
    hlr_score: 75,
  },
  '+15005550011': {
    fields: US_NUMBER('+15005550011', 'premium', 25),
    hlr: NO_HLR_ANSWER,
    hlr_score: 25,
  },
  '+15005550012': {
    fields: US_NUMBER('+15005550012', 'unknown', 60),
    hlr: NO_HLR_ANSWER,
    hlr_score: 60,
  },
  '+15005550013': {
    fields: US_NUMBER('+15005550013', 'mobile', 75),
    hlr: live(true, true),
    hlr_score: 95,
  },
};

const network = (
  country: string,
  asn: number,
  asn_org: string,
  flags: Partial<Pick<MagicIp, 'vpn' | 'proxy' | 'tor' | 'datacenter'>>,
  abuse_score: number,
): MagicIp => ({
  country,
  city: null,
  asn,
  asn_org,
  vpn: false,
  proxy: false,
  tor: false,
  datacenter: false,
  ...flags,
  abuse_score,
});

// Documentation ranges (RFC 5737, RFC 3849) and documentation AS numbers (RFC 5398): no real
// network ever has them.
/** Magic addresses in their usual text form (any form of the same address matches). */
export const MAGIC_IPS: Readonly<Record<string, MagicIp>> = {
  '192.0.2.1': network('US', 64496, 'Example Broadband', {}, 0),
  '198.51.100.1': network('NL', 64497, 'Example VPN', { vpn: true }, 35),
  '203.0.113.1': network('DE', 64498, 'Example Hosting', { tor: true, datacenter: true }, 78),
  '203.0.113.2': network('US', 64499, 'Example Proxy', { proxy: true }, 50),
  '2001:db8::1': network('US', 64496, 'Example Broadband', {}, 0),
};

/** Same key for every text form of one address. */
function ipKey(input: string): string | null {
  const ip = parseIp(input);
  if (ip === null) return null;
  return ip.version === 4 ? `4:${ip.v4}` : `6:${ip.v6}`;
}

const IPS: ReadonlyMap<string, MagicIp> = new Map(
  Object.entries(MAGIC_IPS).map(([text, answer]) => [ipKey(text)!, answer]),
);

/** Spaces, hyphens, dots and parentheses people write inside a number. */
const NUMBER_PUNCTUATION = /[\s\-.()]/g;

const PHONES: ReadonlyMap<string, MagicPhone> = new Map(Object.entries(MAGIC_PHONES));
const EMAILS: ReadonlyMap<string, MagicEmail> = new Map(Object.entries(MAGIC_EMAILS));

/** The magic number `input` writes, if any. */
export function magicPhone(input: string): MagicPhone | undefined {
  return PHONES.get(input.replace(NUMBER_PUNCTUATION, ''));
}

/** The magic address with this (lower-case) local part and domain, if any. */
export function magicEmail(local: string, domain: string): MagicEmail | undefined {
  return EMAILS.get(`${local.toLowerCase()}@${domain}`);
}

/** The magic answer for the address `input` writes, if any. */
export function magicIp(input: string): MagicIp | undefined {
  const key = ipKey(input);
  return key === null ? undefined : IPS.get(key);
}

/**
 * Whether a test key's input is one of the magic inputs, whose answers never change: the
 * account's history leaves them out (docs/test-mode.md).
 */
export function isMagicInput(kind: 'email' | 'phone' | 'ip', input: string): boolean {
  switch (kind) {
    case 'email':
      return EMAILS.has(input.trim().toLowerCase());
    case 'phone':
      return magicPhone(input.trim()) !== undefined;
    case 'ip':
      return magicIp(input) !== undefined;
  }
}
