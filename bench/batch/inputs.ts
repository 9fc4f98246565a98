// Deterministic batch input files for the batch benchmark, written to disk in large blocks.
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import examplesMobile from 'libphonenumber-js/examples.mobile.json';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';

/** A DNS zone entry as LoopbackDnsServer takes it. */
export type ZoneEntry = { MX?: { exchange: string; preference: number }[]; A?: string[] };

/** Big mail providers (most of a real list), then company domains, typos and disposables. */
const PROVIDERS = [
  'gmail.com',
  'yahoo.com',
  'outlook.com',
  'hotmail.com',
  'icloud.com',
  'aol.com',
  'gmx.de',
  'web.de',
  'orange.fr',
  'live.com',
  'proton.me',
  'yandex.ru',
];
const TYPOS = ['gmial.com', 'yahoo.con', 'hotmial.com', 'outlok.com', 'gmail.co'];
const DISPOSABLE = ['mailinator.com', 'guerrillamail.com', 'yopmail.com', '10minutemail.com'];
const ROLES = ['info', 'support', 'sales', 'admin', 'contact'];
const FIRST = ['jane', 'john', 'maria', 'wei', 'ahmed', 'olga', 'luca', 'sofia', 'raj', 'emma'];
const LAST = ['smith', 'garcia', 'chen', 'khan', 'novak', 'rossi', 'silva', 'muller', 'kim'];
/** Company domains: 400 distinct, each with MX (most real lists have a long tail). */
const COMPANIES = Array.from(
  { length: 400 },
  (_, i) => `${['acme', 'globex', 'initech', 'umbrella', 'stark'][i % 5]}-${i}.example`,
);

/** Every domain the email file uses, each with an MX and the MX host's A record. */
export function emailZone(): Record<string, ZoneEntry> {
  const zone: Record<string, ZoneEntry> = {};
  for (const d of [...PROVIDERS, ...TYPOS, ...DISPOSABLE, ...COMPANIES]) {
    zone[d] = { MX: [{ exchange: `mx.${d}`, preference: 10 }] };
    zone[`mx.${d}`] = { A: ['127.0.0.1'] };
  }
  return zone;
}

/** Number of domains in {@link emailZone} that take mail. */
export const EMAIL_DOMAINS = PROVIDERS.length + TYPOS.length + DISPOSABLE.length + COMPANIES.length;

/**
 * Row i of the email file: 55% provider addresses, 25% company, 8% role, 5% typo domains,
 * 4% disposable, 3% invalid syntax. `pad` lengthens the local part (the 100 MB upload).
 */
export function emailRow(i: number, pad = 0): string {
  const r = (i * 2654435761) % 100;
  const name = `${FIRST[i % FIRST.length]}.${LAST[(i >>> 3) % LAST.length]}${i}`;
  const local =
    pad > 0 ? `${name}.${'x'.repeat(Math.max(0, Math.min(pad, 63 - name.length)))}` : name;
  if (r < 55) return `${local}@${PROVIDERS[i % PROVIDERS.length]}`;
  if (r < 80) return `${local}@${COMPANIES[i % COMPANIES.length]}`;
  if (r < 88) return `${ROLES[i % ROLES.length]}@${COMPANIES[(i >>> 2) % COMPANIES.length]}`;
  if (r < 93) return `${local}@${TYPOS[i % TYPOS.length]}`;
  if (r < 97) return `${local}@${DISPOSABLE[i % DISPOSABLE.length]}`;
  return i % 2 === 0 ? `${local}.at.${PROVIDERS[i % PROVIDERS.length]}` : `${local}@@example.com`;
}

/** E.164 example mobile numbers of every region libphonenumber knows. */
const PHONE_BASES: string[] = getCountries().flatMap((region) => {
  const national = (examplesMobile as Record<string, string | undefined>)[region];
  return national === undefined ? [] : [`+${getCountryCallingCode(region)}${national}`];
});

/**
 * Row i of the phone file: an E.164 number of one of ~240 regions with its last digits varied
 * (valid or not as the region's plan says), 2% junk. Batch rows carry no country hint.
 */
export function phoneRow(i: number): string {
  if (i % 50 === 49) return i % 100 === 99 ? 'not a number' : '+44 1234';
  const base = PHONE_BASES[i % PHONE_BASES.length];
  const tail = String(Math.floor(i / PHONE_BASES.length) % 1000).padStart(3, '0');
  return base.slice(0, -3) + tail;
}

/** Row i of the IP file: xorshift-spread public-looking IPv4 (90%), IPv6 (9%), junk (1%). */
export function ipRow(i: number): string {
  let x = (i + 1) * 0x9e3779b9;
  x ^= x << 13;
  x ^= x >>> 17;
  x ^= x << 5;
  const v = x >>> 0;
  if (i % 100 === 99) return `not-an-ip-${i}`;
  if (i % 10 === 9)
    return `2a0${v & 7}:${((v >>> 8) & 0xffff).toString(16)}::${(i & 0xffff).toString(16)}`;
  let a = 1 + ((v >>> 24) % 223);
  if (a === 10 || a === 127 || a === 100) a += 1;
  return `${a}.${(v >>> 16) & 255}.${(v >>> 8) & 255}.${v & 255}`;
}

/** Writes `rows` lines of `row(i)` to `path`; returns the file size in bytes. */
export async function writeRows(
  path: string,
  rows: number,
  row: (i: number) => string,
): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  let block: string[] = [];
  for (let i = 0; i < rows; i++) {
    block.push(row(i));
    if (block.length === 10_000 || i === rows - 1) {
      const text = block.join('\n') + '\n';
      bytes += Buffer.byteLength(text);
      block = [];
      if (!out.write(text)) await once(out, 'drain');
    }
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
