import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { PhoneNumberFormat, PhoneNumberType, PhoneNumberUtil } from 'google-libphonenumber';
import examplesMobile from 'libphonenumber-js/examples.mobile.json';
import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
  type PhoneNumberType as JsType,
} from 'libphonenumber-js/max';
import type { LineType } from '@verity/contracts';
import { createPhoneEngine, type PhoneRequest } from '@verity/validation';
import { CarrierTable } from './carrier-table';

// The line_type table of docs/models/phone.md, written out again here on purpose: the test
// checks the engine against the documentation, not against its own mapping function.
const DOCUMENTED: Record<Exclude<JsType, 'FIXED_LINE_OR_MOBILE'>, LineType> = {
  MOBILE: 'mobile',
  PAGER: 'mobile',
  FIXED_LINE: 'landline',
  TOLL_FREE: 'landline',
  UAN: 'landline',
  VOIP: 'voip',
  PERSONAL_NUMBER: 'voip',
  PREMIUM_RATE: 'premium',
  SHARED_COST: 'premium',
  VOICEMAIL: 'unknown',
};

// google-libphonenumber trails libphonenumber-js by a metadata release or two; these Google
// example numbers are not valid (or not of that type) in the newer metadata we ship
// (e.g. Benin moved to 10-digit numbers). Each entry must still disagree, so the list
// cannot hide a regression and is pruned when the libraries catch up.
const METADATA_SKEW = new Set(['BJ:VOIP', 'BJ:UAN', 'BW:VOIP', 'ZW:FIXED_LINE']);

const regionsPerCode = new Map<string, number>();
for (const r of getCountries()) {
  const cc = getCountryCallingCode(r);
  regionsPerCode.set(cc, (regionsPerCode.get(cc) ?? 0) + 1);
}
const SHARED_CODE = new Set(
  getCountries().filter((r) => regionsPerCode.get(getCountryCallingCode(r))! > 1),
);

const carriers = CarrierTable.load();
const engine = createPhoneEngine({ carriers });

interface Case {
  region: CountryCode;
  type: Exclude<JsType, 'FIXED_LINE_OR_MOBILE'>;
  e164: string;
  national: string;
}

/** What docs/models/phone.md says the engine returns for an example of `type`. */
function expected(c: Case): LineType {
  const parsed = parsePhoneNumberFromString(c.e164);
  // NANP-style plans: fixed and mobile ranges coincide and libphonenumber says
  // FIXED_LINE_OR_MOBILE; the docs return mobile when Google's (mobile-only) carrier data
  // names a range holder, else unknown.
  if (
    parsed?.getType() === 'FIXED_LINE_OR_MOBILE' &&
    (c.type === 'MOBILE' || c.type === 'FIXED_LINE')
  ) {
    return carriers.lookup(parsed.countryCallingCode, parsed.nationalNumber) ? 'mobile' : 'unknown';
  }
  return DOCUMENTED[c.type];
}

/** The same number typed with an East Asian input method: U+FF01..U+FF5E for ASCII. */
function fullWidth(text: string): string {
  return text.replace(/[!-~]/g, (ch) => String.fromCharCode(ch.charCodeAt(0) + 0xfee0));
}

/**
 * The national form with its last digits spelt as keypad letters (2 → A, 3 → D, ...), the way
 * vanity numbers are advertised; null when fewer than three of them have letters (0, 1).
 */
function vanity(national: string): string | null {
  const first: Record<string, string> = {
    2: 'A',
    3: 'D',
    4: 'G',
    5: 'J',
    6: 'M',
    7: 'P',
    8: 'T',
    9: 'W',
  };
  let spelt = 0;
  const out = [...national];
  for (let i = out.length - 1; i >= 0 && spelt < 4; i--) {
    if (first[out[i]] !== undefined) {
      out[i] = first[out[i]];
      spelt++;
    }
  }
  return spelt >= 3 ? out.join('') : null;
}

async function check(cases: Case[]): Promise<{ ok: number; checks: number; failures: string[] }> {
  let ok = 0;
  let checks = 0;
  const failures: string[] = [];
  for (const c of cases) {
    const want = expected(c);
    const spelt = vanity(c.national);
    const forms: [string, PhoneRequest][] = [
      ['e164', { phone: c.e164 }],
      ['national+hint', { phone: c.national, country_hint: c.region }],
      ['full-width e164', { phone: fullWidth(c.e164) }],
      ['full-width national+hint', { phone: fullWidth(c.national), country_hint: c.region }],
    ];
    if (spelt !== null)
      forms.push(['vanity national+hint', { phone: spelt, country_hint: c.region }]);
    for (const [form, req] of forms) {
      checks++;
      const r = await engine.validate(req);
      // Regions sharing a calling code (IM/GB, CC/AU, AX/FI, VA/IT ...) resolve to the
      // region libphonenumber picks for the range; the rest must come back as themselves.
      const country = SHARED_CODE.has(c.region)
        ? parsePhoneNumberFromString(c.e164)?.country
        : c.region;
      if (r.valid && r.e164 === c.e164 && r.country === country && r.line_type === want) ok++;
      else
        failures.push(
          `${c.region}:${c.type} ${form} ${JSON.stringify(req)} → ${JSON.stringify(r)} want ${want}`,
        );
    }
  }
  return { ok, checks, failures };
}

describe('phone line_type accuracy over every region', () => {
  it('every mobile example of the shipped (max) metadata parses, is valid and maps as documented', async () => {
    const cases: Case[] = [];
    for (const region of getCountries()) {
      const national = (examplesMobile as Record<string, string | undefined>)[region];
      if (national === undefined) continue;
      cases.push({
        region,
        type: 'MOBILE',
        e164: `+${getCountryCallingCode(region)}${national}`,
        national,
      });
    }
    const { ok, checks, failures } = await check(cases);
    console.log(
      `mobile examples (libphonenumber-js): ${cases.length} numbers, ${ok}/${checks} checks ok (e164, national, full-width, vanity)`,
    );
    assert.deepEqual(failures, []);
    assert.ok(cases.length > 230);
  });

  it("every type's Google example number, for every region, maps as documented", async () => {
    const util = PhoneNumberUtil.getInstance();
    const cases: Case[] = [];
    const skewed: string[] = [];
    for (const region of getCountries()) {
      for (const type of Object.keys(DOCUMENTED) as (keyof typeof DOCUMENTED)[]) {
        const ex = util.getExampleNumberForType(region, PhoneNumberType[type]);
        if (!ex) continue;
        const c: Case = {
          region,
          type,
          e164: util.format(ex, PhoneNumberFormat.E164),
          national: util.format(ex, PhoneNumberFormat.NATIONAL),
        };
        if (METADATA_SKEW.has(`${region}:${type}`)) skewed.push(`${region}:${type}`);
        else cases.push(c);
      }
    }
    const { ok, checks, failures } = await check(cases);
    const byType = new Map<string, number>();
    for (const c of cases) byType.set(c.type, (byType.get(c.type) ?? 0) + 1);
    console.log(
      `typed examples (google-libphonenumber): ${cases.length} numbers over ${getCountries().length} regions, ` +
        `${ok}/${checks} checks ok; ${skewed.length} skipped for metadata skew; ` +
        JSON.stringify(Object.fromEntries(byType)),
    );
    assert.deepEqual(failures, []);
    assert.deepEqual(skewed.sort(), [...METADATA_SKEW].sort());
    assert.ok(cases.length > 1000);
  });

  it('the metadata-skew entries still disagree (prune them when they stop)', () => {
    const util = PhoneNumberUtil.getInstance();
    for (const key of METADATA_SKEW) {
      const [region, type] = key.split(':') as [CountryCode, keyof typeof DOCUMENTED];
      const ex = util.getExampleNumberForType(region, PhoneNumberType[type]);
      const parsed = parsePhoneNumberFromString(util.format(ex, PhoneNumberFormat.E164));
      assert.ok(!parsed?.isValid() || parsed.getType() !== type, key);
    }
  });
});
