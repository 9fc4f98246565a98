import type { AnonymousRecord, AsnRecord, GeoRecord } from '@verity/validation';

// MMDB records are untyped maps; these readers pick fields defensively instead of trusting a cast.
type Rec = Readonly<Record<string, unknown>>;

function obj(v: unknown): Rec | null {
  return typeof v === 'object' && v !== null ? (v as Rec) : null;
}
function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 ? v : null;
}
function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

/**
 * City record to country/city. Two shapes exist:
 * - MaxMind GeoIP2/GeoLite2: `country.iso_code` (falling back to `registered_country.iso_code`
 *   when the location country is absent, e.g. anycast or satellite ranges) and `city.names.en`;
 * - ip-location-db: flat `country_code` and `city` (empty string when unknown).
 */
export function geoFromRecord(record: unknown): GeoRecord | null {
  const r = obj(record);
  if (r === null) return null;
  if ('country_code' in r) return { country: str(r.country_code), city: str(r.city) };
  const country = str(obj(r.country)?.iso_code) ?? str(obj(r.registered_country)?.iso_code);
  const city = str(obj(obj(r.city)?.names)?.en);
  return { country, city };
}

/** GeoLite2-ASN, GeoIP2-ISP and ip-location-db ASN records share these field names. */
export function asnFromRecord(record: unknown): AsnRecord | null {
  const r = obj(record);
  if (r === null) return null;
  const asn = num(r.autonomous_system_number);
  const org = str(r.autonomous_system_organization);
  return asn === null && org === null ? null : { asn, org };
}

/**
 * MaxMind Anonymous-IP / Anonymous-Plus / IP-Risk record to flags:
 * is_anonymous_vpn → vpn; is_public_proxy or is_residential_proxy → proxy;
 * is_tor_exit_node → tor; is_hosting_provider → datacenter; ip_risk → risk.
 */
export function anonymousFromRecord(record: unknown): AnonymousRecord | null {
  const r = obj(record);
  if (r === null) return null;
  return {
    vpn: r.is_anonymous_vpn === true,
    proxy: r.is_public_proxy === true || r.is_residential_proxy === true,
    tor: r.is_tor_exit_node === true,
    datacenter: r.is_hosting_provider === true,
    risk: num(r.ip_risk),
  };
}
