// Phone engine throughput, offline, against the bare libphonenumber-js floor on the same inputs.
import examplesMobile from 'libphonenumber-js/examples.mobile.json';
import {
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';
import { CarrierTable } from '@verity/integrations';
import { createPhoneEngine, type PhoneRequest } from '@verity/validation';

const ROUNDS = 3;
const TARGET_ROWS = 60_000;

function inputs(): PhoneRequest[] {
  const out: PhoneRequest[] = [];
  for (const region of getCountries()) {
    const national = (examplesMobile as Record<string, string | undefined>)[region];
    if (national === undefined) continue;
    out.push({ phone: `+${getCountryCallingCode(region)}${national}` });
    out.push({ phone: national, country_hint: region });
  }
  out.push(
    { phone: 'not a number' },
    { phone: '+44 1234' },
    { phone: '(201) 555-0123', country_hint: 'US' },
  );
  return out;
}

function floor(reqs: PhoneRequest[]): number {
  let valid = 0;
  for (const r of reqs) {
    const opts = r.country_hint ? { defaultCountry: r.country_hint as CountryCode } : {};
    const n = parsePhoneNumberFromString(r.phone, opts);
    if (n?.isValid() && n.getType() !== undefined) valid++;
  }
  return valid;
}

/** Prints rows/s of the offline phone engine and of the bare library floor, and their ratio. */
export async function benchPhone(): Promise<void> {
  const base = inputs();
  const reqs: PhoneRequest[] = [];
  while (reqs.length < TARGET_ROWS) reqs.push(...base);
  const t0 = performance.now();
  const carriers = CarrierTable.load();
  const loadMs = performance.now() - t0;
  const engine = createPhoneEngine({ carriers });

  // Warm up both paths so the JIT sees them before timing.
  floor(base);
  for (const r of base) await engine.validate(r);

  let bestFloor = 0;
  let bestEngine = 0;
  for (let round = 0; round < ROUNDS; round++) {
    let t = performance.now();
    floor(reqs);
    bestFloor = Math.max(bestFloor, reqs.length / ((performance.now() - t) / 1000));
    t = performance.now();
    for (const r of reqs) await engine.validate(r);
    bestEngine = Math.max(bestEngine, reqs.length / ((performance.now() - t) / 1000));
  }
  const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
  console.log(
    `phone: ${reqs.length} rows (${base.length} distinct: ${getCountries().length} regions, E.164 + national with hint); carrier table ${carriers.size} prefixes loaded in ${loadMs.toFixed(0)} ms`,
  );
  console.log(`phone engine (offline)       : ${fmt(bestEngine)} rows/s`);
  console.log(
    `libphonenumber-js/max floor  : ${fmt(bestFloor)} rows/s (parse + isValid + getType)`,
  );
  console.log(
    `ratio engine/floor           : ${(bestEngine / bestFloor).toFixed(2)} (target >= 0.80)`,
  );
}
