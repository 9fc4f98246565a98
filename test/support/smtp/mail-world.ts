import { LoopbackDnsServer, type LoopbackZoneEntry } from '../dns/loopback-dns.server';
import { SeededRandom } from '../seeded-random';
import {
  MailHost,
  type MailBehaviour,
  type MailHostSpec,
  type MailHostStats,
} from './mail-host.server';

/** What is true of an address, whatever a verifier says. */
export type Truth = 'exists' | 'missing' | 'unknowable';

/** One mail domain of the world and the mailboxes it has. */
export interface WorldDomainSpec {
  domain: string;
  /** The MX name of the host serving it. */
  host: string;
  existing: number;
  missing: number;
  disabled?: number;
  full?: number;
}

/** A world: its hosts and domains. */
export interface MailWorldSpec {
  hosts: MailHostSpec[];
  domains: WorldDomainSpec[];
}

/** One address of the world and its ground truth. */
export interface WorldAddress {
  address: string;
  domain: string;
  behaviour: MailBehaviour;
  truth: Truth;
}

// Nothing about these servers' mailboxes can be learnt over SMTP: a catch-all accepts
// everyone, a block list refuses everyone, a tarpit never answers in time.
const UNKNOWABLE: ReadonlySet<MailBehaviour> = new Set(['catch_all', 'policy', 'tarpit']);

/** A port free on every host address, for the world's servers (they all listen on one port). */
async function listenAll(hosts: MailHost[]): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 40_000);
    try {
      for (const host of hosts) await host.listen(port);
      return port;
    } catch (error) {
      await Promise.all(hosts.map((h) => h.stop().catch(() => undefined)));
      if (attempt >= 10) throw error;
    }
  }
}

/**
 * Mail domains on loopback with ground truth (docs/models/email.md, "Test world"): a DNS
 * server pointing each domain's MX at its host's own 127.0.0.x address, and SMTP servers
 * (smtp-server) answering as their behaviour says, all on one port (EMAIL_SMTP_PORT).
 */
export class MailWorld {
  readonly addresses: WorldAddress[] = [];
  private readonly truths = new Map<string, Truth>();

  private constructor(
    readonly hosts: ReadonlyMap<string, MailHost>,
    readonly dns: LoopbackDnsServer,
    /** The DNS server, as `DNS_SERVERS` takes it. */
    readonly dnsServers: string,
    /** The port every host listens on (`EMAIL_SMTP_PORT`). */
    readonly port: number,
    /** Each domain's MX name. */
    readonly mxOf: ReadonlyMap<string, string>,
  ) {}

  /** The DNS server's address. */
  get dnsAddress(): { host: string; port: number } {
    const [host, port] = this.dnsServers.split(':');
    return { host, port: Number(port) };
  }

  static async start(spec: MailWorldSpec): Promise<MailWorld> {
    const zone: Record<string, LoopbackZoneEntry> = {};
    const mailboxes = new Map(
      spec.hosts.map((h) => [
        h.name,
        { existing: new Set<string>(), disabled: new Set<string>(), full: new Set<string>() },
      ]),
    );
    const addresses: WorldAddress[] = [];
    const byName = new Map(spec.hosts.map((h) => [h.name, h]));
    spec.domains.forEach((d, di) => {
      const host = byName.get(d.host);
      if (host === undefined) throw new Error(`${d.domain}: no host ${d.host}`);
      zone[d.domain] = { MX: [{ exchange: d.host, preference: 10 }] };
      const boxes = mailboxes.get(d.host)!;
      const kinds: [number, 'exists' | 'missing' | 'disabled' | 'full'][] = [
        [d.existing, 'exists'],
        [d.missing, 'missing'],
        [d.disabled ?? 0, 'disabled'],
        [d.full ?? 0, 'full'],
      ];
      let n = 0;
      for (const [count, kind] of kinds) {
        for (let i = 0; i < count; i++) {
          const address = `u${di}x${String(n++).padStart(5, '0')}@${d.domain}`;
          if (kind === 'exists') boxes.existing.add(address);
          if (kind === 'disabled') boxes.disabled.add(address);
          if (kind === 'full') boxes.full.add(address);
          const truth: Truth = UNKNOWABLE.has(host.behaviour)
            ? 'unknowable'
            : kind === 'full'
              ? 'unknowable'
              : kind === 'exists'
                ? 'exists'
                : 'missing';
          addresses.push({ address, domain: d.domain, behaviour: host.behaviour, truth });
        }
      }
    });
    for (const host of spec.hosts) zone[host.name] = { A: [host.ip] };
    const hosts = spec.hosts.map((h) => new MailHost(h, mailboxes.get(h.name)!));
    const dns = new LoopbackDnsServer({ zone });
    const address = await dns.start();
    let port: number;
    try {
      port = await listenAll(hosts);
    } catch (error) {
      await dns.stop();
      throw error;
    }
    const world = new MailWorld(
      new Map(hosts.map((h) => [h.spec.name, h])),
      dns,
      `${address.host}:${address.port}`,
      port,
      new Map(spec.domains.map((d) => [d.domain, d.host])),
    );
    for (const a of addresses) {
      world.addresses.push(a);
      world.truths.set(a.address, a.truth);
    }
    return world;
  }

  /** The addresses in an order drawn from `seed` (a list mixes its domains). */
  shuffled(seed: number): WorldAddress[] {
    const random = new SeededRandom(seed);
    const out = [...this.addresses];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(random.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  truth(address: string): Truth | undefined {
    return this.truths.get(address.toLowerCase());
  }

  /** What each host saw, by MX name. */
  stats(): Record<string, MailHostStats & { behaviour: MailBehaviour }> {
    return Object.fromEntries(
      [...this.hosts].map(([name, host]) => [
        name,
        { ...host.stats, behaviour: host.spec.behaviour },
      ]),
    );
  }

  async stop(): Promise<void> {
    await Promise.all([...this.hosts.values()].map((h) => h.stop()));
    await this.dns.stop();
  }
}
