/** Signals that feed the abuse score. */
export interface AbuseSignals {
  readonly tor: boolean;
  readonly proxy: boolean;
  readonly vpn: boolean;
  readonly datacenter: boolean;
  readonly blocklisted: boolean;
  /** MaxMind IP-Risk `ip_risk` when an IP-Risk database is configured. */
  readonly risk: number | null;
}

/**
 * Weight of each signal as the probability that an address with it is abusive. Signals
 * combine as independent evidence, 1 − Π(1 − w), so two signals score higher than either
 * alone but never pass 100. Documented in docs/models/ip.md.
 */
export const ABUSE_WEIGHTS = Object.freeze({
  tor: 0.7,
  blocklisted: 0.6,
  proxy: 0.5,
  vpn: 0.35,
  datacenter: 0.25,
});

/** Fixed answer for private, reserved and bogon addresses (see docs/models/ip.md). */
export const BOGON_ABUSE_SCORE = 0;

/** 0–100 abuse score: flag evidence combined, raised to MaxMind's ip_risk when that is higher. */
export function abuseScore(s: AbuseSignals): number {
  let clean = 1;
  if (s.tor) clean *= 1 - ABUSE_WEIGHTS.tor;
  if (s.blocklisted) clean *= 1 - ABUSE_WEIGHTS.blocklisted;
  if (s.proxy) clean *= 1 - ABUSE_WEIGHTS.proxy;
  if (s.vpn) clean *= 1 - ABUSE_WEIGHTS.vpn;
  if (s.datacenter) clean *= 1 - ABUSE_WEIGHTS.datacenter;
  const fromFlags = Math.round((1 - clean) * 100);
  const fromRisk = s.risk === null ? 0 : Math.round(Math.min(100, Math.max(0, s.risk)));
  return Math.max(fromFlags, fromRisk);
}
