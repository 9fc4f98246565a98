import type { DnsQuerier } from './caching.dns-resolver';
import { DnsTimeoutError, RCODE, type DnsReply } from './udp.dns-transport';

/** What one canary domain's MX query came back with. */
export type CanaryOutcome = 'answer' | 'nxdomain' | 'nodata' | 'servfail' | 'timeout' | 'error';

/**
 * The resolvers' health as the canary sees it:
 * - `healthy`: at least one canary domain resolved to its mail exchangers;
 * - `denies_domains`: every canary said "no such domain" (or no MX): a broken or captive
 *   resolver, whose NXDOMAIN answers cannot be believed for anyone's domain;
 * - `unreachable`: no canary got an answer (timeouts, SERVFAIL): DNS does not work here;
 * - `unchecked`: no check has finished yet, or the canary is off.
 */
export type ResolverState = 'unchecked' | 'healthy' | 'denies_domains' | 'unreachable';

/** The last check, as /readyz, the banner and the metric show it. */
export interface CanaryReport {
  state: ResolverState;
  checked_at: string | null;
  domains: { domain: string; outcome: CanaryOutcome }[];
}

function outcomeOf(reply: DnsReply): CanaryOutcome {
  if (reply.rcode === RCODE.NXDOMAIN) return 'nxdomain';
  if (reply.rcode !== RCODE.NOERROR) return 'servfail';
  return reply.answers.some((a) => a.type === 'MX') ? 'answer' : 'nodata';
}

function stateOf(outcomes: readonly CanaryOutcome[]): ResolverState {
  if (outcomes.length === 0) return 'unchecked';
  if (outcomes.includes('answer')) return 'healthy';
  if (outcomes.every((o) => o === 'nxdomain' || o === 'nodata')) return 'denies_domains';
  return 'unreachable';
}

/**
 * Asks the resolvers, uncached, for the MX records of a few domains that certainly receive
 * mail (DNS_CANARY_DOMAINS), at start and every `intervalMs`. A resolver that denies them all
 * would otherwise make every address `undeliverable` while readiness stayed green; with the
 * canary failing, {@link querier} turns "no such domain" into a failed lookup, so answers say
 * `unknown` instead of claiming what the resolver cannot know.
 */
export class DnsCanary {
  private last: CanaryReport = { state: 'unchecked', checked_at: null, domains: [] };
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<CanaryReport> | null = null;

  constructor(
    private readonly transport: DnsQuerier,
    private readonly domains: readonly string[],
    private readonly onReport: (report: CanaryReport) => void = () => undefined,
  ) {}

  get report(): CanaryReport {
    return this.last;
  }

  /** Runs a check now (one at a time: a caller during a check shares it). */
  check(): Promise<CanaryReport> {
    if (this.domains.length === 0) return Promise.resolve(this.last);
    this.running ??= this.run().finally(() => (this.running = null));
    return this.running;
  }

  /**
   * The first check, waited for at most `waitMs` (a check that takes longer finishes in the
   * background), then one every `intervalMs`.
   */
  async start(waitMs: number, intervalMs: number): Promise<void> {
    if (this.domains.length === 0) return;
    await Promise.race([
      this.check(),
      new Promise((resolve) => setTimeout(resolve, waitMs).unref()),
    ]);
    this.timer = setInterval(() => void this.check(), intervalMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** `inner`, with NXDOMAIN read as a failed lookup while the canary says the resolver denies domains. */
  querier(inner: DnsQuerier): DnsQuerier {
    return {
      query: async (name, type) => {
        const reply = await inner.query(name, type);
        if (reply.rcode !== RCODE.NXDOMAIN || this.last.state !== 'denies_domains') return reply;
        return { rcode: RCODE.SERVFAIL, answers: [], authorities: [] };
      },
    };
  }

  private async run(): Promise<CanaryReport> {
    const domains = await Promise.all(
      this.domains.map(async (domain) => ({
        domain,
        outcome: await this.transport
          .query(domain, 'MX')
          .then(outcomeOf, (error: unknown) =>
            error instanceof DnsTimeoutError ? ('timeout' as const) : ('error' as const),
          ),
      })),
    );
    this.last = {
      state: stateOf(domains.map((d) => d.outcome)),
      checked_at: new Date().toISOString(),
      domains,
    };
    this.onReport(this.last);
    return this.last;
  }
}
