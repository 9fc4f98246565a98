/**
 * `Content-Disposition: attachment` naming `name` (RFC 6266): `filename*` carries it exactly
 * (UTF-8, percent-encoded, RFC 8187), `filename` an ASCII stand-in for clients that read only
 * that one (each other character, quote and backslash as `_`).
 */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
