import { gzipSync } from 'node:zlib';
import type { FuzzRandom } from './fuzz-random';

/** One generated request: its body bytes and headers. */
export interface FuzzRequest {
  body: Buffer;
  headers: Record<string, string>;
}

const EMAILS = [
  'jane@example.com',
  'bob@mailinator.com',
  'a@b.co',
  'x@gmial.com',
  'noat.example.com',
];
const PHONES = ['+14155552671', '07400 123456', '+447400123456', '123', '+1'];
const IPS = ['8.8.8.8', '1.1.1.1', '::1', '2001:4860:4860::8888', '10.0.0.1', '999.1.1.1'];

/** Plausible values per field, so a share of bodies gets past validation and is charged. */
export const FIELDS: Record<string, readonly string[]> = {
  email: EMAILS,
  phone: PHONES,
  ip: IPS,
  country_hint: ['GB', 'US', 'gb', 'G', 'GBR'],
  name: ['staging', 'Acme', ' ', 'a'.repeat(100)],
};

const JSON_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json;charset=UTF-8',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/json-patch+json',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
];

/**
 * JSON text of a value whose shape, not its content, is the attack: nesting around the depth
 * limit (64) and far past what a recursive walk survives, very wide arrays, objects with
 * thousands of keys, prototype keys deep inside. Built as text: JSON.stringify recurses, and a
 * ten-thousand-level value would overflow this process's stack before the server's.
 */
export function hostileStructure(rnd: FuzzRandom): string {
  switch (rnd.int(5)) {
    case 0: {
      const levels = rnd.pick([62, 63, 64, 65, 1000, 10_000]);
      return '['.repeat(levels) + JSON.stringify(rnd.json(0)) + ']'.repeat(levels);
    }
    case 1: {
      const levels = rnd.pick([63, 64, 65, 2000, 9000]);
      const key = JSON.stringify(rnd.pick(['a', '__proto__', 'constructor', 'prototype']));
      return `{${key}:`.repeat(levels) + '1' + '}'.repeat(levels);
    }
    case 2: {
      const item = rnd.pick(['"a@b.co"', '1', 'null', '"\\u0000"', '[]', '{}']);
      return `[${Array.from({ length: rnd.pick([1000, 5000]) }, () => item).join(',')}]`;
    }
    case 3: {
      const keys = rnd.pick([1000, 3000]);
      return `{${Array.from({ length: keys }, (_, i) => `"k${i}":${i}`).join(',')}}`;
    }
    default:
      return rnd.pick([
        '{"constructor":{"prototype":{"polluted":1}}}',
        '{"a":{"b":{"constructor":{"prototype":{"toString":"x"}}}}}',
        '{"a":{"__proto__":{"polluted":1}}}',
        '{"__proto__":null,"hasOwnProperty":"x","toString":1,"valueOf":[]}',
        '[{"constructor":"x"},{"prototype":"y"},{"__proto__":[]}]',
      ]);
  }
}

/**
 * A JSON-endpoint body: mostly an object over the endpoint's fields (plausible or hostile
 * values), sometimes any JSON value, broken JSON or another media type.
 */
export function jsonBody(
  rnd: FuzzRandom,
  fields: readonly string[],
  extra: Record<string, () => unknown> = {},
): FuzzRequest {
  const type = rnd.chance(0.8) ? rnd.pick(JSON_TYPES.slice(0, 3)) : rnd.pick(JSON_TYPES);
  const headers: Record<string, string> = type ? { 'content-type': type } : {};
  const shape = rnd.int(10);
  let text: string;
  if (shape < 7) {
    const obj: Record<string, unknown> = {};
    for (const field of fields) {
      if (rnd.chance(0.15)) continue;
      obj[field] = rnd.chance(0.5)
        ? rnd.pick(FIELDS[field] ?? ['x'])
        : rnd.json(1, FIELDS[field] ?? []);
    }
    for (const [field, make] of Object.entries(extra)) if (rnd.chance(0.85)) obj[field] = make();
    if (rnd.chance(0.1)) obj[rnd.string(['__proto__', 'constructor', 'x'])] = rnd.json(1);
    text = JSON.stringify(obj);
    if (rnd.chance(0.05)) text = text.replace('{', '{"__proto__":{"polluted":1},');
    if (rnd.chance(0.15)) {
      const key = JSON.stringify(rnd.pick([...fields, 'x', '__proto__', 'constructor']));
      text = `${text.slice(0, -1)}${text === '{}' ? '' : ','}${key}:${hostileStructure(rnd)}}`;
    }
  } else if (shape === 7) {
    text = JSON.stringify(rnd.json(2));
  } else if (shape === 8) {
    const full = JSON.stringify({ [rnd.pick(fields)]: rnd.pick(FIELDS[fields[0]] ?? ['x']) });
    text = full.slice(0, rnd.int(full.length));
  } else {
    text = rnd.bytes(rnd.int(200));
  }
  if (rnd.chance(0.02)) text = text + ' '.repeat(70_000); // over the test's BODY_LIMIT_BYTES
  return { body: Buffer.from(text, 'utf8'), headers };
}

const CSV_ROWS = [
  ...EMAILS,
  '',
  '"quoted, comma"',
  'a,b',
  '=cmd|/C calc!A0',
  '\ufeffjane@example.com',
];

/** A multipart body for POST /v1/batch: well formed, or broken in one of the ways clients break them. */
export function multipartBody(rnd: FuzzRandom): FuzzRequest {
  // Header values are bytes: odd boundaries stay within Latin-1 (fetch refuses the rest).
  const boundary = rnd.chance(0.9)
    ? `----fuzz${rnd.int(1e9)}`
    : rnd.pick(['', ' ', '"quoted"', 'a b', 'x'.repeat(100), ';;', '--', 'é', '\t']);
  const eol = rnd.chance(0.9) ? '\r\n' : '\n';
  const parts: string[] = [];
  const field = (name: string, value: string) =>
    parts.push(
      `--${boundary}${eol}Content-Disposition: form-data; name="${name}"${eol}${eol}${value}`,
    );
  if (rnd.chance(0.9))
    field('type', rnd.chance(0.8) ? rnd.pick(['email', 'phone', 'ip']) : rnd.string(['email']));
  if (rnd.chance(0.2)) {
    field(
      'webhook_url',
      rnd.pick([
        'https://hooks.example.com/x',
        'http://localhost./',
        'http://127.0.0.1/',
        'ftp://x',
        rnd.string(),
      ]),
    );
  }
  const files = rnd.chance(0.9) ? 1 : rnd.int(3);
  for (let f = 0; f < files; f++) {
    const rows = Array.from({ length: rnd.int(6) }, () =>
      rnd.chance(0.8) ? rnd.pick(CSV_ROWS) : rnd.string(EMAILS),
    );
    let csv = rows.join(rnd.chance(0.8) ? '\n' : '\r\n');
    if (rnd.chance(0.05)) csv = Buffer.from([0xff, 0xfe, 0x00, 0xc3]).toString('latin1');
    const name = rnd.chance(0.9) ? 'file' : rnd.string(['file']);
    parts.push(
      `--${boundary}${eol}Content-Disposition: form-data; name="${name}"; filename="in.csv"${eol}` +
        `Content-Type: text/csv${eol}${eol}${csv}`,
    );
  }
  if (rnd.chance(0.1)) field('type', 'email'); // a field after the file
  let text = parts.join(eol) + `${eol}--${boundary}--${eol}`;
  let type = `multipart/form-data; boundary=${boundary}`;
  const headers: Record<string, string> = {};
  switch (rnd.int(12)) {
    case 0:
      text = text.slice(0, rnd.int(text.length)); // cut anywhere (closing boundary, headers, data)
      break;
    case 1:
      type = 'multipart/form-data';
      break;
    case 2:
      type = `multipart/form-data; boundary=other${rnd.int(100)}`;
      break;
    case 3: {
      const at = rnd.int(text.length);
      text = text.slice(0, at) + rnd.bytes(1 + rnd.int(4)) + text.slice(at + 1);
      break;
    }
    case 4:
      type = rnd.pick([
        'application/json',
        'text/plain',
        'multipart/mixed; boundary=' + boundary,
        '',
      ]);
      break;
    default:
      break;
  }
  let body = Buffer.from(text, 'utf8');
  if (rnd.chance(0.03)) {
    body = gzipSync(body);
    headers['content-encoding'] = 'gzip';
  }
  if (type) headers['content-type'] = type;
  return { body, headers };
}
