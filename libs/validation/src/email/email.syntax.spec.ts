import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parseEmail } from './email.syntax';

/**
 * How each isemail diagnosis maps to our valid_syntax (docs/models/email.md keeps the same
 * table). Whole categories map one way except ISEMAIL_RFC5321, which is split by diagnosis.
 */
const CATEGORY_VALID: Record<string, boolean> = {
  ISEMAIL_VALID_CATEGORY: true,
  ISEMAIL_DNSWARN: true, // DNS is mx_found's job, not syntax
  ISEMAIL_RFC5321: false, // except the diagnoses below
  ISEMAIL_CFWS: false,
  ISEMAIL_DEPREC: false,
  ISEMAIL_RFC5322: false,
  ISEMAIL_ERR: false,
};
const DIAGNOSIS_VALID: Record<string, boolean> = {
  ISEMAIL_RFC5321_QUOTEDSTRING: true,
  ISEMAIL_RFC5321_TLD: true,
  ISEMAIL_RFC5321_TLDNUMERIC: false,
  ISEMAIL_RFC5321_ADDRESSLITERAL: false,
  ISEMAIL_RFC5321_IPV6DEPRECATED: false,
};

interface IsEmailCase {
  id: string;
  address: string;
  category: string;
  diagnosis: string;
}

/** Source fixtures are not copied by tsc: walk up from this file to the repo root. */
function fixturePath(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) dir = dirname(dir);
  return join(dir, 'libs/validation/src/email/__fixtures__/isemail-tests.xml');
}

function decodeXml(text: string): string {
  return (
    text
      .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(parseInt(dec, 10)))
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&')
      // The corpus writes ASCII control characters as U+2400 + code (its note 1).
      .replace(/[\u2400-\u241f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0x2400))
  );
}

function loadCorpus(): IsEmailCase[] {
  const xml = readFileSync(fixturePath(), 'utf8');
  const cases: IsEmailCase[] = [];
  for (const m of xml.matchAll(/<test id="(\d+)">([\s\S]*?)<\/test>/g)) {
    const body = m[2];
    const address = /<address>([\s\S]*?)<\/address>/.exec(body)?.[1] ?? '';
    const category = /<category>([^<]*)<\/category>/.exec(body)?.[1] ?? '';
    const diagnosis = /<diagnosis>([^<]*)<\/diagnosis>/.exec(body)?.[1] ?? '';
    cases.push({ id: m[1], address: decodeXml(address), category, diagnosis });
  }
  return cases;
}

function expectedValid(c: IsEmailCase): boolean {
  const byDiagnosis = DIAGNOSIS_VALID[c.diagnosis];
  if (byDiagnosis !== undefined) return byDiagnosis;
  const byCategory = CATEGORY_VALID[c.category];
  assert.notEqual(byCategory, undefined, `unmapped category ${c.category}`);
  return byCategory;
}

describe('parseEmail against the isemail corpus', () => {
  const corpus = loadCorpus();

  it('reads all 164 cases', () => {
    assert.equal(corpus.length, 164);
  });

  it('agrees with the documented category mapping on every case', () => {
    const disagreements = corpus
      .filter((c) => (parseEmail(c.address) !== null) !== expectedValid(c))
      .map((c) => `#${c.id} ${JSON.stringify(c.address)} ${c.diagnosis}`);
    assert.deepEqual(disagreements, []);
  });
});

describe('parseEmail policy', () => {
  it('lower-cases the domain and keeps the local part', () => {
    assert.deepEqual(parseEmail('John.Doe@Example.COM'), {
      local: 'John.Doe',
      domain: 'example.com',
      quoted: false,
    });
  });

  it('maps internationalized domains to punycode (UTS-46)', () => {
    assert.equal(parseEmail('info@Bücher.de')?.domain, 'xn--bcher-kva.de');
    assert.equal(parseEmail('user@例え.テスト')?.domain, 'xn--r8jz45g.xn--zckzah');
  });

  it('accepts UTF-8 local parts (RFC 6531) and counts their length in octets', () => {
    assert.equal(parseEmail('用户@例子.广告')?.local, '用户');
    assert.equal(parseEmail('josé@example.com')?.local, 'josé');
    // 32 two-octet characters = 64 octets: allowed; 33 = 66 octets: too long.
    assert.notEqual(parseEmail(`${'é'.repeat(32)}@example.com`), null);
    assert.equal(parseEmail(`${'é'.repeat(33)}@example.com`), null);
  });

  it('refuses what the URL host parser would silently rewrite', () => {
    assert.equal(parseEmail('a@ex%41mple.com'), null);
    assert.equal(parseEmail('a@iana/icann.org'), null);
    assert.equal(parseEmail('a@exa_mple.com'), null);
    assert.equal(parseEmail('a@xn--zz.com'), null);
  });

  it('refuses trailing dots, address literals, C1 controls and lone surrogates', () => {
    assert.equal(parseEmail('a@example.com.'), null);
    assert.equal(parseEmail('a@[127.0.0.1]'), null);
    assert.equal(parseEmail('a\u0085b@example.com'), null);
    assert.equal(parseEmail('a\ud800@example.com'), null);
  });

  it('checks domains against IDNA2008, not just UTS-46 mapping', () => {
    // © and emoji map under UTS-46 (node's domainToASCII accepts them) but are DISALLOWED
    // by RFC 5892's derived property.
    for (const input of [
      'username@domain.com©',
      'a@😀.com',
      'a@xn--ls8h.la', // the A-label of 💩.la
      'a@i❤.ws',
      'a@exa\u00a0mple.com',
      'a@exam\u200bple.com',
    ]) {
      assert.equal(parseEmail(input), null, input);
    }
    assert.equal(parseEmail('a@ＢÜCHER.DE')?.domain, 'xn--bcher-kva.de');
    assert.equal(parseEmail('a@straße.de')?.domain, 'xn--strae-oqa.de'); // non-transitional
  });

  it('normalises the local part to NFC before counting its octets', () => {
    assert.equal(parseEmail('jos\u0065\u0301@example.com')?.local, 'jos\u00e9');
    // U+0958 is 3 octets but composes to 6 under NFC (a composition exclusion): 21 of them
    // are 63 octets as typed and 126 once normalised.
    assert.equal(parseEmail(`${'\u0958'.repeat(21)}@example.com`), null);
    const label = 'a'.repeat(63);
    const domain = `${label}.${label}.${label}.${'b'.repeat(59)}`; // 251 octets
    assert.notEqual(parseEmail(`\u212b@${domain}`), null); // Å sign 3 octets → Å 2: 254
    assert.equal(parseEmail(`x\u0958@${domain}`), null); // 255 typed-equivalent → 258
  });

  it('refuses local-part characters that hide spoofing, with their classes', () => {
    const refused: Record<string, string> = {
      nbsp: '\u00a0',
      'en quad': '\u2000',
      'hair space': '\u200a',
      'line separator': '\u2028',
      'paragraph separator': '\u2029',
      'zero width space': '\u200b',
      'right-to-left mark': '\u200f',
      'right-to-left override': '\u202e',
      'pop directional isolate': '\u2069',
      'private use': '\ue000',
      'supplementary private use': '\udb80\udc00',
      unassigned: '\u0378',
      noncharacter: '\ufdd0',
      'noncharacter U+FFFF': '\uffff',
    };
    for (const [what, ch] of Object.entries(refused)) {
      assert.equal(parseEmail(`ab${ch}cd@example.com`), null, what);
      assert.equal(parseEmail(`"ab${ch}cd"@example.com`), null, `quoted ${what}`);
    }
    assert.equal(parseEmail('\u0301abc@example.com'), null, 'leading combining mark');
    assert.equal(parseEmail('abc.\u0301d@example.com'), null, 'combining mark after a dot');
    assert.equal(parseEmail('"\u0301abc"@example.com'), null, 'quoted leading combining mark');
    assert.equal(parseEmail('ab\u0301c@example.com')?.local, 'ab\u0301c'); // attached to b
  });

  it('enforces the 254-octet path limit', () => {
    const label = 'a'.repeat(63);
    const domain = `${label}.${label}.${label}.${'b'.repeat(57)}`; // 249 octets
    assert.notEqual(parseEmail(`abc@${domain}`), null); // 253
    assert.notEqual(parseEmail(`abcd@${domain}`), null); // 254
    assert.equal(parseEmail(`abcde@${domain}`), null); // 255
  });
});
