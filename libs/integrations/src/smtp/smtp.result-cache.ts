import type { SmtpProbeResult, SmtpReason } from '@verity/validation';
import { LruTtlCache } from '../dns/lru.cache';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * How long an answer is reused, by what it said (docs/models/email.md, "Cache"). Mailboxes are
 * created and closed over days, so a definite answer lives a day; an answer that says nothing
 * about the mailbox (policy, a full mailbox) an hour; a host that did not answer ten minutes;
 * a temporary refusal never (a later call must ask again: that is how greylisting passes).
 */
export const RESULT_TTL_MS: Readonly<Record<SmtpReason, number>> = {
  accepted: 24 * HOUR,
  mailbox_missing: 24 * HOUR,
  mailbox_disabled: 24 * HOUR,
  mailbox_full: HOUR,
  policy_refusal: HOUR,
  protocol_error: HOUR,
  smtputf8_unsupported: HOUR,
  timeout: 10 * MINUTE,
  unreachable: 10 * MINUTE,
  temporary_failure: 0,
  connection_limit: 0,
  // Never produced by a server's answer: derived from the lists and the catch-all cache.
  accept_all_provider: 0,
  catch_all_domain: 0,
};

/** How long a domain's catch-all answer (from a random recipient) is reused. */
export const CATCH_ALL_TTL_MS = 24 * HOUR;

/**
 * Answers per address and catch-all per domain, in this process (bounded LRU). Shared by every
 * account: what a mail server says about a public address is the same whoever asks, and a
 * second ask would only cost the server another session (docs/models/email.md, "Cache").
 */
export class SmtpResultCache {
  private readonly answers: LruTtlCache<SmtpProbeResult>;
  private readonly catchAll: LruTtlCache<boolean>;

  constructor(
    private readonly enabled: boolean,
    maxEntries: number,
    now: () => number = Date.now,
  ) {
    this.answers = new LruTtlCache(enabled ? maxEntries : 0, now);
    this.catchAll = new LruTtlCache(enabled ? Math.max(1, Math.ceil(maxEntries / 10)) : 0, now);
  }

  /** A fresh earlier answer about `address`, marked cached; undefined if none. */
  answer(address: string): SmtpProbeResult | undefined {
    if (!this.enabled) return undefined;
    const hit = this.answers.get(address);
    if (hit === undefined) return undefined;
    return { ...hit, evidence: { ...hit.evidence, source: 'cached', durationMs: 0 } };
  }

  /** Whether `domain` accepts any recipient; undefined when not known. */
  isCatchAll(domain: string): boolean | undefined {
    return this.enabled ? this.catchAll.get(domain) : undefined;
  }

  remember(address: string, result: SmtpProbeResult): void {
    if (this.enabled) this.answers.set(address, result, RESULT_TTL_MS[result.evidence.reason]);
  }

  rememberCatchAll(domain: string, catchAll: boolean): void {
    if (this.enabled) this.catchAll.set(domain, catchAll, CATCH_ALL_TTL_MS);
  }

  clear(): void {
    this.answers.clear();
    this.catchAll.clear();
  }
}
