// Special-use domain names (the IANA registry of RFC 6761 §3) that no Internet mail can
// reach, answered without a DNS query:
// - `.onion` (RFC 7686 §2): Tor onion services; resolvers and applications must not send
//   them to DNS;
// - `.localhost` (RFC 6761 §6.3): the local host itself;
// - `.invalid` (RFC 6761 §6.4): guaranteed never to exist;
// - `.local` (RFC 6762 §3): multicast DNS on the local link, never global DNS.
// `.test` and `.example` (RFC 6761 §6.2, §6.5) stay ordinary names: the RFC asks software
// not to treat them specially, so they go to the resolver like any other domain.

/** The special-use top-level labels that take no Internet mail. */
export type SpecialUseTld = 'onion' | 'localhost' | 'invalid' | 'local';

const SPECIAL_USE: ReadonlySet<string> = new Set<SpecialUseTld>([
  'onion',
  'localhost',
  'invalid',
  'local',
]);

/** The special-use TLD the (lower-case, ASCII) domain ends in, or null. */
export function specialUseTld(domain: string): SpecialUseTld | null {
  const label = domain.slice(domain.lastIndexOf('.') + 1);
  return SPECIAL_USE.has(label) ? (label as SpecialUseTld) : null;
}
