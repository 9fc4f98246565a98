/** What connections to mail hosts have shown about this host's outbound SMTP. */
export type OutboundState = 'unknown' | 'open' | 'blocked';

/** The watch's view, for /readyz and the start-up line. */
export interface OutboundStatus {
  state: OutboundState;
  /** Connection attempts in a row that timed out, to this many distinct hosts. */
  consecutiveTimeouts: number;
  hosts: number;
  /** When a connection to a mail host was last made (ISO 8601), or null. */
  lastConnectedAt: string | null;
  /** Set while `state` is `blocked`: what to do about it. */
  warning?: string;
}

/**
 * Timeouts in a row, to at least this many distinct hosts, before port 25 is said to look
 * blocked: one silent host is a dead server, every host silent is the network (most clouds
 * drop outbound port 25 without an answer).
 */
export const BLOCKED_AFTER_TIMEOUTS = 8;
export const BLOCKED_AFTER_HOSTS = 3;

const WARNING =
  'every connection to a mail host timed out: outbound port 25 looks blocked, so every mailbox is answered unknown. Set EMAIL_SMTP_PROXY to a SOCKS5 proxy that may send to port 25, or turn EMAIL_SMTP_PROBE off (docs/models/email.md, "Deployment")';

/** Watches every TCP connect to a mail host (the verifier and the start-time check report here). */
export class OutboundSmtpWatch {
  private timeouts = 0;
  private readonly hosts = new Set<string>();
  private lastConnected: Date | null = null;
  /** The start-time check's connect timed out, and nothing has connected since. */
  private canaryTimedOut = false;

  /** The start-time check (checkOutboundSmtp): its one connection stands for the network. */
  recordCanary(ip: string, outcome: 'connected' | 'timeout' | 'refused'): void {
    this.record(ip, outcome);
    this.canaryTimedOut = outcome === 'timeout';
  }

  /** A connection to `ip` was made, timed out, or was refused (the network answered). */
  record(ip: string, outcome: 'connected' | 'timeout' | 'refused'): void {
    if (outcome === 'timeout') {
      this.timeouts++;
      if (this.hosts.size < BLOCKED_AFTER_HOSTS) this.hosts.add(ip);
      return;
    }
    this.timeouts = 0;
    this.hosts.clear();
    this.canaryTimedOut = false;
    if (outcome === 'connected') this.lastConnected = new Date();
  }

  status(): OutboundStatus {
    const blocked =
      this.canaryTimedOut ||
      (this.timeouts >= BLOCKED_AFTER_TIMEOUTS && this.hosts.size >= BLOCKED_AFTER_HOSTS);
    const state: OutboundState = blocked ? 'blocked' : this.lastConnected ? 'open' : 'unknown';
    return {
      state,
      consecutiveTimeouts: this.timeouts,
      hosts: this.hosts.size,
      lastConnectedAt: this.lastConnected?.toISOString() ?? null,
      ...(blocked && { warning: WARNING }),
    };
  }
}
