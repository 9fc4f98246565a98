import { BlockList, isIP } from 'node:net';

// Mail hosts on these ranges are refused unless allowPrivate: an MX is set by whoever owns
// the domain, so without this guard anyone could make us open connections inside our network.
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16],
  ['172.16.0.0', 12], ['192.168.0.0', 16], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, bits, 'ipv4'); // prettier-ignore
for (const [net, bits] of [
  ['::', 127], ['::ffff:0:0', 96], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) PRIVATE.addSubnet(net, bits, 'ipv6'); // prettier-ignore

/** Whether the probe may connect to `ip` (an address, never a name). */
export function allowedMailHostAddress(ip: string, allowPrivate: boolean): boolean {
  const family = isIP(ip);
  if (family === 0) return false;
  return allowPrivate || !PRIVATE.check(ip, family === 6 ? 'ipv6' : 'ipv4');
}
