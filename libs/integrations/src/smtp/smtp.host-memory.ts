import { LruTtlCache } from '../dns/lru.cache';

const HOUR = 3_600_000;
/** How long a host that timed out or could not be reached is not dialled again. */
export const UNRESPONSIVE_TTL_MS = 5 * 60_000;
/** Hosts remembered (learned limits, silence); the least recently used go first. */
const HOSTS = 10_000;

/** A host that did not answer: how, so every address waiting for it gets the same answer. */
export interface Silence {
  reason: 'timeout' | 'unreachable';
}

/**
 * What this process learned about mail hosts, so the next session does not learn it again:
 * recipients a session or transaction may carry (from 452 "too many recipients", RFC 5321
 * §4.5.3.1.10), refusals in a row (the backoff grows with them), and hosts that did not answer
 * (a tarpit holds a session until the timeout; asking it again only waits again).
 */
export class HostMemory {
  private readonly sessionLimits = new LruTtlCache<number>(HOSTS);
  private readonly transactionLimits = new LruTtlCache<number>(HOSTS);
  private readonly refusalStreaks = new LruTtlCache<number>(HOSTS);
  private readonly silences = new LruTtlCache<Silence>(HOSTS);

  constructor(private readonly rcptsPerSession: number) {}

  /** Recipients one session may carry to `host`. */
  sessionLimit(host: string): number {
    return this.sessionLimits.get(host) ?? this.rcptsPerSession;
  }

  /** Recipients one transaction may carry before RSET; Infinity when no limit was met. */
  transactionLimit(host: string): number {
    return this.transactionLimits.get(host) ?? Infinity;
  }

  learnSessionLimit(host: string, recipients: number): void {
    this.sessionLimits.set(host, Math.max(1, Math.min(recipients, this.sessionLimit(host))), HOUR);
  }

  learnTransactionLimit(host: string, recipients: number): void {
    this.transactionLimits.set(host, Math.max(1, recipients), HOUR);
  }

  /** One more refusal in a row; returns the streak. */
  refused(host: string): number {
    const streak = (this.refusalStreaks.get(host) ?? 0) + 1;
    this.refusalStreaks.set(host, streak, HOUR);
    return streak;
  }

  /** A session got through: the refusal streak ends. */
  served(host: string): void {
    this.refusalStreaks.set(host, 0, HOUR);
  }

  silence(host: string): Silence | undefined {
    return this.silences.get(host);
  }

  markSilent(host: string, silence: Silence): void {
    this.silences.set(host, silence, UNRESPONSIVE_TTL_MS);
  }
}
