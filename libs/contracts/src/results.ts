// The public result shapes of the API (docs/api.md, "Component schemas"). Field names are
// part of the interface: within v1 fields are only added.

export const DELIVERABILITY = ['deliverable', 'risky', 'undeliverable', 'unknown'] as const;
export type Deliverability = (typeof DELIVERABILITY)[number];

export const LINE_TYPES = ['mobile', 'landline', 'voip', 'premium', 'unknown'] as const;
export type LineType = (typeof LINE_TYPES)[number];

export const HLR_STATUSES = ['active', 'inactive', 'unavailable'] as const;
export type HlrStatus = (typeof HLR_STATUSES)[number];

export const RISK_LEVELS = ['low', 'medium', 'high'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];

/** The open-data lists behind the IP flags; `blocklist` feeds `abuse_score`. */
export const IP_LIST_KINDS = ['tor', 'vpn', 'proxy', 'datacenter', 'blocklist'] as const;
export type IpListKind = (typeof IP_LIST_KINDS)[number];

/** Email signals as computed by the engine (EmailResult without credits_used). */
export interface EmailFields {
  input: string;
  valid_syntax: boolean;
  mx_found: boolean;
  disposable: boolean;
  role_based: boolean;
  free_provider: boolean;
  did_you_mean: string | null;
  deliverability: Deliverability;
  score: number;
}
export interface EmailResult extends EmailFields {
  credits_used: number;
}

export interface HlrResult {
  status: HlrStatus;
  ported: boolean | null;
  roaming: boolean | null;
}

/** Phone signals as computed by the engine (PhoneResult without credits_used). */
export interface PhoneFields {
  input: string;
  valid: boolean;
  e164: string | null;
  country: string | null;
  line_type: LineType;
  carrier: string | null;
  hlr: HlrResult | null;
  score: number;
}
export interface PhoneResult extends PhoneFields {
  credits_used: number;
}

/** IP signals as computed by the engine (IpResult without credits_used). */
export interface IpFields {
  input: string;
  country: string | null;
  city: string | null;
  asn: number | null;
  asn_org: string | null;
  vpn: boolean;
  proxy: boolean;
  tor: boolean;
  datacenter: boolean;
  abuse_score: number;
}
export interface IpResult extends IpFields {
  credits_used: number;
}

/**
 * One open-data list behind the IP flags, in `POST /v1/ip/intel?explain=true`: whether it
 * holds the address, and its state, so a `false` from a missing list is not read as clean.
 */
export interface IpListEvidence {
  /** The flag the list feeds: `blocklist` feeds `abuse_score`. */
  kind: IpListKind;
  /** The list's id, e.g. `tor-exits`, `x4bnet-datacenter-ipv4`. */
  source: string;
  /** `loaded`; `stale` (older than its cadence, still used); `missing` or `error`: not used. */
  status: 'loaded' | 'stale' | 'missing' | 'error';
  /** Seconds since the list's data was written; null when there is none. */
  age_seconds: number | null;
  /** The address is on this list (always false when the list is missing). */
  matched: boolean;
}

/** IP signals plus the state of every open-data list (`?explain=true`). */
export interface ExplainedIpFields extends IpFields {
  lists: IpListEvidence[];
}

export interface VerifyResult {
  fraud_score: number;
  risk: RiskLevel;
  email?: EmailResult;
  phone?: PhoneResult;
  ip?: IpResult;
  credits_used: number;
  /** The id of this call: report how it turned out with POST /v1/feedback (docs/history.md). */
  request_id: string;
}
