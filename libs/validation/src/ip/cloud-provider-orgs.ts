// Datacenter by owner (docs/models/ip.md, "Flag rules"): an address routed by an AS that the
// routing data registers to a cloud or hosting provider that publishes its ranges is a
// datacenter address, even when the bundled ASN list lacks that AS (AWS AS8987, Google
// AS19527/AS36040/AS36492/AS139070). Names are those of the default routing data
// (@ip-location-db/asn); anchored, so "Google Fiber Inc." (a consumer ISP) never matches.
const CLOUD_PROVIDER_ORG = new RegExp(
  '^(?:' +
    [
      'amazon\\.com(?:, inc\\.| services, llc| tech telecom)',
      'amazon data services ',
      'amazon technologies,? inc\\.',
      'google,? llc$',
      'google asia pacific pte\\. ltd\\.',
      'google cloud ',
      'google ireland limited',
      'microsoft corporation',
      'oracle corporation',
      'digitalocean, llc',
      'hetzner online gmbh',
      'ovh sas',
      'the constant company, llc', // Vultr
      'linode, llc',
      'scaleway ',
      'alibaba cloud ',
      'tencent cloud computing ',
    ].join('|') +
    ')',
  'i',
);

const known = new Map<string, boolean>();
const MAX_CACHED = 100_000;

/** True when an AS organisation name is one of the cloud and hosting providers above. */
export function isCloudProviderOrg(org: string | null): boolean {
  if (org === null) return false;
  let hit = known.get(org);
  if (hit === undefined) {
    hit = CLOUD_PROVIDER_ORG.test(org);
    if (known.size < MAX_CACHED) known.set(org, hit);
  }
  return hit;
}
