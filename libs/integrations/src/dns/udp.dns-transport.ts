import { createSocket } from 'node:dgram';
import { randomInt } from 'node:crypto';
import { connect, isIPv6 } from 'node:net';
import * as packet from 'dns-packet';
import type { DnsRecordType, DnsServer } from './dns.types';

/** Decoded reply of one query. */
export interface DnsReply {
  rcode: number;
  answers: packet.Answer[];
  authorities: packet.Answer[];
}

/** RCODE values of RFC 1035 §4.1.1. */
export const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 } as const;

/** No server answered in time. */
export class DnsTimeoutError extends Error {
  override readonly name = 'DnsTimeoutError';
}

/** Socket-level failure (unreachable, malformed reply, ...). */
export class DnsTransportError extends Error {
  override readonly name = 'DnsTransportError';
}

// EDNS0 (RFC 6891) with the 1232-octet payload of the DNS flag day 2020: large MX sets
// fit in UDP without fragmentation; anything larger comes back truncated and goes over TCP.
const EDNS_PAYLOAD = 1232;

function buildQuery(id: number, name: string, type: DnsRecordType): packet.Packet {
  return {
    type: 'query',
    id,
    flags: packet.RECURSION_DESIRED,
    questions: [{ type, name, class: 'IN' }],
    additionals: [
      {
        type: 'OPT',
        name: '.',
        udpPayloadSize: EDNS_PAYLOAD,
        extendedRcode: 0,
        ednsVersion: 0,
        flags: 0,
        flag_do: false,
        options: [],
      },
    ],
  };
}

/** A reply counts only if it carries our random id and echoes our question (spoofing guard). */
function matches(reply: packet.DecodedPacket, id: number, name: string, type: string): boolean {
  const q = reply.questions?.[0];
  return (
    reply.id === id &&
    reply.type === 'response' &&
    q !== undefined &&
    q.type === type &&
    q.name.toLowerCase() === name.toLowerCase()
  );
}

function toReply(reply: packet.DecodedPacket): DnsReply {
  return {
    rcode: (reply.flags ?? 0) & 0xf,
    answers: reply.answers ?? [],
    authorities: reply.authorities ?? [],
  };
}

/**
 * Sends DNS queries over UDP (TCP when the reply is truncated, RFC 7766) to a list of
 * servers in order; a server that times out, errors or answers SERVFAIL/REFUSED hands over
 * to the next one. Each query uses a fresh socket, so a random source port and a random id.
 */
export class UdpDnsTransport {
  constructor(
    private readonly servers: readonly DnsServer[],
    private readonly timeoutMs: number,
  ) {
    if (servers.length === 0) throw new Error('UdpDnsTransport needs at least one DNS server');
  }

  /** Queries the servers in turn; throws DnsTimeoutError / DnsTransportError when none answers. */
  async query(name: string, type: DnsRecordType): Promise<DnsReply> {
    let lastReply: DnsReply | undefined;
    let lastError: Error = new DnsTransportError('no server tried');
    for (const server of this.servers) {
      try {
        const reply = await this.queryServer(server, name, type);
        if (reply.rcode !== RCODE.SERVFAIL && reply.rcode !== RCODE.REFUSED) return reply;
        lastReply = reply;
      } catch (err) {
        lastError = err instanceof Error ? err : new DnsTransportError(String(err));
      }
    }
    if (lastReply !== undefined) return lastReply;
    throw lastError;
  }

  private async queryServer(
    server: DnsServer,
    name: string,
    type: DnsRecordType,
  ): Promise<DnsReply> {
    const id = randomInt(0, 0x10000);
    const query = buildQuery(id, name, type);
    const reply = await this.overUdp(server, query, id, name, type);
    return reply.flag_tc
      ? toReply(await this.overTcp(server, query, id, name, type))
      : toReply(reply);
  }

  private overUdp(
    server: DnsServer,
    query: packet.Packet,
    id: number,
    name: string,
    type: DnsRecordType,
  ): Promise<packet.DecodedPacket> {
    return new Promise((resolve, reject) => {
      const socket = createSocket(isIPv6(server.host) ? 'udp6' : 'udp4');
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        socket.close();
        fn();
      };
      const timer = setTimeout(
        () =>
          finish(() => reject(new DnsTimeoutError(`no answer from ${server.host}:${server.port}`))),
        this.timeoutMs,
      );
      socket.on('error', (err) => finish(() => reject(new DnsTransportError(err.message))));
      socket.on('message', (msg) => {
        let decoded: packet.DecodedPacket;
        try {
          decoded = packet.decode(msg);
        } catch {
          return; // garbage on our port: keep waiting for the real answer
        }
        if (matches(decoded, id, name, type)) finish(() => resolve(decoded));
      });
      socket.send(packet.encode(query), server.port, server.host, (err) => {
        if (err) finish(() => reject(new DnsTransportError(err.message)));
      });
    });
  }

  private overTcp(
    server: DnsServer,
    query: packet.Packet,
    id: number,
    name: string,
    type: DnsRecordType,
  ): Promise<packet.DecodedPacket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: server.host, port: server.port });
      let buffered = Buffer.alloc(0);
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        socket.destroy();
        fn();
      };
      const timer = setTimeout(
        () => finish(() => reject(new DnsTimeoutError(`no TCP answer from ${server.host}`))),
        this.timeoutMs,
      );
      socket.on('error', (err) => finish(() => reject(new DnsTransportError(err.message))));
      socket.on('connect', () => socket.write(packet.streamEncode(query)));
      socket.on('data', (chunk: Buffer) => {
        buffered = Buffer.concat([buffered, chunk]);
        if (buffered.length < 2 || buffered.length < 2 + buffered.readUInt16BE(0)) return;
        try {
          const decoded = packet.decode(buffered.subarray(2, 2 + buffered.readUInt16BE(0)));
          if (matches(decoded, id, name, type)) finish(() => resolve(decoded));
          else finish(() => reject(new DnsTransportError('mismatched TCP answer')));
        } catch (err) {
          finish(() => reject(new DnsTransportError(String(err))));
        }
      });
      socket.on('end', () => finish(() => reject(new DnsTransportError('TCP closed early'))));
    });
  }
}
