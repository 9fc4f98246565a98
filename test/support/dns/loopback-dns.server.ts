import { createSocket, type Socket } from 'node:dgram';
import { createServer, type Server } from 'node:net';
import * as packet from 'dns-packet';
import type { DnsServer } from '@verity/integrations';

/** Records of one name in a loopback zone. */
export interface LoopbackZoneEntry {
  MX?: { exchange: string; preference: number }[];
  A?: string[];
  AAAA?: string[];
  /** Answer SERVFAIL for this name. */
  servfail?: boolean;
  /** Over UDP answer truncated (TC) so clients must retry over TCP. */
  truncate?: boolean;
  /** Record TTL in seconds (default 300). */
  ttl?: number;
}

/** Options of the loopback server. */
export interface LoopbackDnsOptions {
  zone: Record<string, LoopbackZoneEntry>;
  /** Never answer anything (a dead resolver). */
  silent?: boolean;
  /** TTL of the SOA sent with NXDOMAIN / no-data answers (default 60). */
  negativeTtl?: number;
  /** Send every answer this many milliseconds late (a slow resolver). */
  delayMs?: number;
}

const NEGATIVE_SOA = (ttl: number): packet.SoaAnswer => ({
  type: 'SOA',
  name: 'test',
  ttl,
  data: { mname: 'ns.test', rname: 'hostmaster.test', serial: 1, minimum: ttl },
});

/**
 * A tiny authoritative DNS server on 127.0.0.1 for tests and benchmarks (UDP, plus TCP for
 * truncated answers). It counts the queries it receives so callers can assert caching.
 */
export class LoopbackDnsServer {
  /** Every question received, as "TYPE name". */
  readonly queries: string[] = [];
  /** Answers kept by {@link hold} until {@link release}. */
  private held: (() => void)[] | null = null;
  private udp?: Socket;
  private tcp?: Server;
  private port = 0;

  constructor(private readonly options: LoopbackDnsOptions) {}

  /** Binds UDP and TCP on one ephemeral loopback port. */
  async start(): Promise<DnsServer> {
    for (let attempt = 0; ; attempt++) {
      const tcp = createServer((conn) => this.serveTcp(conn));
      await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
      const address = tcp.address();
      if (address === null || typeof address === 'string') throw new Error('no TCP address');
      const udp = createSocket('udp4');
      try {
        await new Promise<void>((resolve, reject) => {
          udp.once('error', reject);
          udp.bind(address.port, '127.0.0.1', () => resolve());
        });
      } catch (err) {
        udp.close();
        await new Promise<void>((resolve) => tcp.close(() => resolve()));
        if (attempt < 5) continue;
        throw err;
      }
      udp.on('message', (msg, rinfo) => {
        const reply = this.answer(msg, true);
        if (reply !== null) this.send(() => udp.send(reply, rinfo.port, rinfo.address));
      });
      this.udp = udp;
      this.tcp = tcp;
      this.port = address.port;
      return { host: '127.0.0.1', port: this.port };
    }
  }

  /** How many questions matched (optionally) a type and a name. */
  count(type?: string, name?: string): number {
    return this.queries.filter((q) => {
      const [t, n] = q.split(' ');
      return (type === undefined || t === type) && (name === undefined || n === name);
    }).length;
  }

  /** Keeps every answer from now on until {@link release}: a resolver that is slow on cue. */
  hold(): void {
    this.held ??= [];
  }

  /** Sends the answers kept since {@link hold} and answers as usual again. */
  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const send of held) send();
  }

  async stop(): Promise<void> {
    await Promise.all([
      new Promise<void>((resolve) => (this.udp ? this.udp.close(() => resolve()) : resolve())),
      new Promise<void>((resolve) => (this.tcp ? this.tcp.close(() => resolve()) : resolve())),
    ]);
  }

  private serveTcp(conn: import('node:net').Socket): void {
    let buffered = Buffer.alloc(0);
    conn.on('error', () => conn.destroy());
    conn.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
      const reply = this.answer(buffered.subarray(2, 2 + buffered.readUInt16BE(0)), false);
      if (reply === null) return;
      const framed = Buffer.alloc(2 + reply.length);
      framed.writeUInt16BE(reply.length, 0);
      reply.copy(framed, 2);
      this.send(() => conn.end(framed));
    });
  }

  private send(reply: () => void): void {
    if (this.held) {
      this.held.push(reply);
      return;
    }
    const delay = this.options.delayMs ?? 0;
    if (delay === 0) return reply();
    setTimeout(() => {
      try {
        reply();
      } catch {
        // Stopped meanwhile: the answer has nowhere to go.
      }
    }, delay);
  }

  private answer(msg: Buffer, udp: boolean): Buffer | null {
    let query: packet.DecodedPacket;
    try {
      query = packet.decode(msg);
    } catch {
      return null;
    }
    const question = query.questions?.[0];
    if (question === undefined) return null;
    const name = question.name.toLowerCase();
    this.queries.push(`${question.type} ${name}`);
    if (this.options.silent === true) return null;

    const entry = this.options.zone[name];
    const negativeTtl = this.options.negativeTtl ?? 60;
    const base = { type: 'response' as const, id: query.id, questions: [question] };
    let flags = packet.RECURSION_AVAILABLE;
    if (entry === undefined) {
      return packet.encode({ ...base, flags: flags | 3, authorities: [NEGATIVE_SOA(negativeTtl)] });
    }
    if (entry.servfail === true) return packet.encode({ ...base, flags: flags | 2 });
    if (udp && entry.truncate === true) {
      return packet.encode({ ...base, flags: flags | packet.TRUNCATED_RESPONSE });
    }
    const ttl = entry.ttl ?? 300;
    const answers: packet.Answer[] = [];
    if (question.type === 'MX') {
      for (const mx of entry.MX ?? []) answers.push({ type: 'MX', name, ttl, data: mx });
    } else if (question.type === 'A' || question.type === 'AAAA') {
      for (const ip of entry[question.type] ?? []) {
        answers.push({ type: question.type, name, ttl, data: ip });
      }
    }
    flags |= packet.AUTHORITATIVE_ANSWER;
    const authorities = answers.length === 0 ? [NEGATIVE_SOA(negativeTtl)] : [];
    return packet.encode({ ...base, flags, answers, authorities });
  }
}
