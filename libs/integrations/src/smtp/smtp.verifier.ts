import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import type {
  MxHost,
  SmtpProbe,
  SmtpProbeOptions,
  SmtpProbeResult,
  SmtpReason,
  SmtpTarget,
} from '@verity/validation';
import type { HostAddressResolver } from '../dns/dns.mx-resolver';
import { isAcceptAllHost } from './accept-all.providers';
import type { MailHostLimiter } from './limiter/mail-host-limiter.port';
import { allowedMailHostAddress } from './smtp.address-guard';
import type { SmtpDialer } from './smtp.dialer';
import type { SmtpEvents } from './smtp.events';
import { HostMemory } from './smtp.host-memory';
import { HostRun, type HostRunContext, type ItemAnswer, type RunItem } from './smtp.host-run';
import { OutboundSmtpWatch } from './smtp.outbound-watch';
import { SmtpResultCache } from './smtp.result-cache';
import { SessionSlots } from './smtp.slots';

/** Settings of the verifier (EMAIL_SMTP_* in config, docs/models/email.md). */
export interface SmtpVerifierSettings {
  port: number;
  timeoutMs: number;
  helo: string;
  /** Reverse-path; '' sends the null reverse-path "<>". */
  mailFrom: string;
  /** Permit loopback/private mail hosts (tests only). */
  allowPrivate: boolean;
  /** Direct, or through the SOCKS5 proxy. */
  dial: SmtpDialer;
  /** Recipients one session carries at most (a 452 lowers it per host). */
  rcptsPerSession: number;
  /** Sessions this process has open at once, all hosts together. */
  maxSessions: number;
  /** Sessions one host may have open at once (the limiter enforces it across processes). */
  hostConcurrency: number;
  /** Backoff after a host refuses a session; doubles per refusal in a row. */
  refusalBackoffMs: number;
  cache: boolean;
  cacheSize: number;
  /** Operator's MX host suffixes of accept-all providers, beside the bundled list. */
  acceptAllHosts: readonly string[];
}

const MAX_MX_HOSTS = 2;
/** A UTF-8 mailbox needs the server's SMTPUTF8 (RFC 6531). */
const NON_ASCII = /[\u0080-\uffff]/;
const MAX_ADDRESSES_PER_HOST = 2;

function result(
  answer: Pick<ItemAnswer, 'verdict' | 'reason' | 'code' | 'enhanced' | 'retryable'>,
  catchAll: boolean | null,
  host: string | null,
  durationMs: number,
  source: 'live' | 'cached',
): SmtpProbeResult {
  const { verdict, reason, code, enhanced, retryable } = answer;
  return {
    verdict,
    catchAll,
    evidence: { reason, host, code, enhanced, source, durationMs, retryable },
  };
}

/** An answer no server gave: from the provider list or the catch-all cache. */
function known(reason: SmtpReason): SmtpProbeResult {
  const answer = {
    verdict: 'unknown',
    reason,
    code: null,
    enhanced: null,
    retryable: false,
  } as const;
  return result(answer, true, null, 0, 'cached');
}

/** The recipients of one mail host, and the chunk rows they answer for. */
interface Group {
  hosts: readonly MxHost[];
  items: RunItem[];
  rows: Map<RunItem, number>;
  domains: Set<string>;
}

/**
 * The SMTP adapter of the email engine's probe port (docs/models/email.md, "SMTP probe"): the
 * addresses of a call or a chunk, grouped by mail host, each host asked in sessions that carry
 * many recipients within its cap (MailHostLimiter, shared by every process); catch-all checked
 * once per domain; answers cached per address. Never sends DATA.
 */
export class SmtpVerifier implements SmtpProbe {
  readonly watch = new OutboundSmtpWatch();
  private events: SmtpEvents = {};
  private readonly cache: SmtpResultCache;
  private readonly memory: HostMemory;
  private readonly slots: SessionSlots;

  constructor(
    private readonly resolver: HostAddressResolver,
    private readonly settings: SmtpVerifierSettings,
    private readonly limiter: MailHostLimiter,
  ) {
    this.cache = new SmtpResultCache(settings.cache, settings.cacheSize);
    this.memory = new HostMemory(settings.rcptsPerSession);
    this.slots = new SessionSlots(settings.maxSessions);
  }

  /** Where sessions, recipients and answers are reported (metrics). */
  observe(events: SmtpEvents): void {
    this.events = events;
  }

  async probeMany(
    targets: readonly SmtpTarget[],
    options: SmtpProbeOptions,
  ): Promise<SmtpProbeResult[]> {
    const results = new Array<SmtpProbeResult>(targets.length);
    const done = (row: number, answer: SmtpProbeResult) => {
      results[row] = answer;
      this.events.onAnswer?.(answer.verdict, answer.evidence.reason, answer.evidence.source);
      options.onAnswer?.();
    };
    const groups = new Map<string, Group>();
    for (let row = 0; row < targets.length; row++) {
      const { address, domain, hosts } = targets[row];
      const primary = hosts[0]?.exchange;
      const cached = this.cache.answer(address);
      if (primary !== undefined && isAcceptAllHost(primary, this.settings.acceptAllHosts)) {
        done(row, known('accept_all_provider'));
      } else if (cached !== undefined) done(row, cached);
      else if (this.cache.isCatchAll(domain) === true) done(row, known('catch_all_domain'));
      else if (primary === undefined) {
        done(row, result(UNREACHABLE, null, null, 0, 'live'));
      } else {
        this.enqueue(groups, primary, hosts, row, address, domain);
      }
    }
    const catchAll = new Map<string, boolean | null>();
    const answers = new Map<RunItem, ItemAnswer>();
    // Every waiting session listens to the signal: one of its own, followed by as many.
    const stop = new AbortController();
    setMaxListeners(0, stop.signal);
    const onAbort = () => stop.abort(options.signal?.reason);
    options.signal?.throwIfAborted();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const ctx = this.context(options.mode, stop.signal);
    try {
      await Promise.all(
        [...groups].map(async ([host, group]) => {
          const ips = await this.addressesOf(group.hosts);
          const settle = (item: RunItem, answer: ItemAnswer) => {
            if (item.kind === 'catch_all') return this.catchAllAnswer(catchAll, item, answer);
            answers.set(item, answer);
          };
          await new HostRun(host, ips, group.items, ctx, settle).run();
        }),
      );
    } catch (error) {
      stop.abort(error);
      throw error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
    }
    for (const group of groups.values()) {
      for (const [item, row] of group.rows) {
        const answer = answers.get(item)!;
        const domainCatchAll =
          answer.verdict === 'undeliverable'
            ? false
            : (catchAll.get(item.domain) ?? this.cache.isCatchAll(item.domain) ?? null);
        const live = result(answer, domainCatchAll, answer.host, answer.durationMs, 'live');
        this.cache.remember(item.address, live);
        done(row, live);
      }
    }
    return results;
  }

  /** Adds a row to its host's group; a domain not known to be catch-all or not gets a check. */
  private enqueue(
    groups: Map<string, Group>,
    primary: string,
    hosts: readonly MxHost[],
    row: number,
    address: string,
    domain: string,
  ): void {
    let group = groups.get(primary);
    if (group === undefined) {
      group = { hosts, items: [], rows: new Map(), domains: new Set() };
      groups.set(primary, group);
    }
    // The catch-all check goes first, so the domain's addresses are read with its answer.
    if (!group.domains.has(domain) && this.cache.isCatchAll(domain) === undefined) {
      const probe = `verity-${randomBytes(8).toString('hex')}@${domain}`;
      group.items.unshift({ kind: 'catch_all', address: probe, domain, utf8: false, attempts: 0 });
    }
    group.domains.add(domain);
    const item: RunItem = {
      kind: 'address',
      address,
      domain,
      utf8: NON_ASCII.test(address),
      attempts: 0,
    };
    group.items.push(item);
    group.rows.set(item, row);
  }

  /** A random recipient accepted means the domain accepts any; refused means it does not. */
  private catchAllAnswer(
    catchAll: Map<string, boolean | null>,
    item: RunItem,
    answer: ItemAnswer,
  ): void {
    const found =
      answer.verdict === 'deliverable' ? true : answer.verdict === 'undeliverable' ? false : null;
    catchAll.set(item.domain, found);
    if (found !== null) this.cache.rememberCatchAll(item.domain, found);
  }

  private context(mode: SmtpProbeOptions['mode'], signal: AbortSignal): HostRunContext {
    const { settings } = this;
    return {
      conversation: {
        port: settings.port,
        timeoutMs: settings.timeoutMs,
        helo: settings.helo,
        mailFrom: settings.mailFrom,
        dial: settings.dial,
      },
      limiter: this.limiter,
      slots: this.slots,
      memory: this.memory,
      watch: this.watch,
      events: this.events,
      mode,
      signal,
      refusalBackoffMs: settings.refusalBackoffMs,
      maxConcurrent: settings.hostConcurrency,
    };
  }

  /**
   * The addresses of the first two mail hosts, two each, that the guard allows: only what the
   * MX names resolve to, never a name handed to the OS resolver.
   */
  private async addressesOf(hosts: readonly MxHost[]): Promise<string[]> {
    const ips: string[] = [];
    for (const host of hosts.slice(0, MAX_MX_HOSTS)) {
      const resolved = await this.resolver.resolveAddresses(host.exchange).catch(() => []);
      const allowed = resolved.filter((ip) =>
        allowedMailHostAddress(ip, this.settings.allowPrivate),
      );
      ips.push(...allowed.slice(0, MAX_ADDRESSES_PER_HOST));
    }
    return ips;
  }

  async close(): Promise<void> {
    this.cache.clear();
    await this.limiter.close();
  }
}

const UNREACHABLE = {
  verdict: 'unknown',
  reason: 'unreachable',
  code: null,
  enhanced: null,
  retryable: false,
} as const;
