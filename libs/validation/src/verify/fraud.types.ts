import type { EmailFields, IpFields, PhoneFields, RiskLevel } from '@verity/contracts';
import type { EmailDnsOutcome } from '../email/email.engine';
import type { FraudHistory } from './history.types';

/** Which supplied result a fraud reason comes from; `cross` rules combine two of them. */
export type FraudSignal = 'email' | 'phone' | 'ip' | 'cross';

/** The three result kinds a verify request may carry (every cross rule names two of them). */
export type SignalKind = Exclude<FraudSignal, 'cross'>;

/** Every reason code the model can emit (docs/models/verify.md lists each with its weight). */
export const FRAUD_REASON_CODES = [
  'email_invalid_syntax',
  'email_no_mx',
  'email_disposable',
  'email_role_based',
  'email_typo_suggested',
  'email_deliverability_risky',
  'email_undeliverable',
  'email_low_score',
  'email_dns_unavailable',
  'email_dns_test_key',
  'email_special_use_domain',
  'email_reported_fraud',
  'email_clean',
  'email_deliverable',
  'email_reported_legitimate',
  'email_established',
  'phone_invalid',
  'phone_voip',
  'phone_premium',
  'phone_hlr_inactive',
  'phone_low_score',
  'phone_shared_24h',
  'phone_shared_30d',
  'phone_reported_fraud',
  'phone_clean',
  'phone_hlr_active',
  'phone_reported_legitimate',
  'phone_established',
  'ip_tor',
  'ip_proxy',
  'ip_vpn',
  'ip_datacenter',
  'ip_abuse',
  'ip_velocity_1h',
  'ip_velocity_24h',
  'ip_subnet_velocity_1h',
  'ip_reported_fraud',
  'ip_subnet_reported_fraud',
  'ip_clean',
  'ip_reported_legitimate',
  'cross_country_mismatch',
  'cross_disposable_email_anonymous_ip',
  'cross_invalid_phone_free_email',
  'cross_voip_phone_anonymous_ip',
  'cross_no_reachable_contact',
] as const;

/** Stable machine-readable code of one fraud reason. */
export type FraudReasonCode = (typeof FRAUD_REASON_CODES)[number];

/** One line of the explanation: `points` > 0 adds risk, < 0 is credit for a clean signal. */
export interface FraudReason {
  code: FraudReasonCode;
  description: string;
  points: number;
  signal: FraudSignal;
}

/** The engine result type behind each signal kind. */
export interface SignalFields {
  email: EmailFields;
  phone: PhoneFields;
  ip: IpFields;
}

/**
 * Input of the combined score: whichever engine results the request supplied, how the email's
 * DNS evidence was obtained (absent: answered) and the account's history of the call's values
 * (absent: none kept, e.g. a batch row).
 */
export interface FraudInput extends Partial<SignalFields> {
  emailDns?: EmailDnsOutcome;
  history?: FraudHistory;
}

/** Output of the combined score; `reasons` is the explain-mode breakdown. */
export interface FraudScore {
  fraud_score: number;
  risk: RiskLevel;
  reasons: FraudReason[];
}
