import { BlockList, isIPv6, type Socket } from 'node:net';
import type { Server } from 'node:http';
import type { AppConfig } from '@verity/config';
import { addressSubject } from './client-address';

/**
 * Bounds the connections one client address holds open (CONNECTIONS_PER_ADDRESS; IPv6 by /64):
 * one more is closed as soon as it arrives, before a byte is read, so no address can take the
 * process's file descriptors. Peers named in TRUST_PROXY carry many clients and are not
 * counted; with a hop count every peer is a proxy, and the cap belongs to the proxy in front.
 */
export function capConnectionsPerAddress(
  server: Server,
  config: Pick<AppConfig, 'CONNECTIONS_PER_ADDRESS' | 'TRUST_PROXY'>,
): void {
  if (typeof config.TRUST_PROXY === 'number') return;
  const proxies = blockListOf(config.TRUST_PROXY || []);
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress;
    if (peer === undefined) return;
    const address = peer.replace(/^::ffff:(?=\d+\.)/i, '');
    if (proxies.check(address, isIPv6(address) ? 'ipv6' : 'ipv4')) return;
    const subject = addressSubject(address);
    const count = (open.get(subject) ?? 0) + 1;
    if (count > config.CONNECTIONS_PER_ADDRESS) {
      socket.destroy();
      return;
    }
    open.set(subject, count);
    socket.once('close', () => {
      const left = (open.get(subject) ?? 1) - 1;
      if (left === 0) open.delete(subject);
      else open.set(subject, left);
    });
  });
}

function blockListOf(entries: string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits] = entry.split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return list;
}
