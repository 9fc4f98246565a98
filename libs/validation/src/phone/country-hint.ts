import { getCountries, type CountryCode } from 'libphonenumber-js/max';
import { VerityError } from '@verity/common';

// ISO 3166-1 alpha-2 officially assigned codes (249, ISO 3166 Maintenance Agency list).
// libphonenumber also knows AC, TA (exceptionally reserved) and XK (user-assigned, used for
// Kosovo); those are accepted too because numbers exist for them.
const ISO_3166_ALPHA2 =
  'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ ' +
  'BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR ' +
  'CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR ' +
  'GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ' +
  'ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ ' +
  'LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ ' +
  'MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF ' +
  'PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI ' +
  'SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR ' +
  'TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW';

const PHONE_REGIONS: ReadonlySet<string> = new Set(getCountries());
const ACCEPTED: ReadonlySet<string> = new Set([...ISO_3166_ALPHA2.split(' '), ...PHONE_REGIONS]);

/** The message of the 400 raised for a bad `country_hint`. */
export const COUNTRY_HINT_ERROR = 'country_hint must be an ISO 3166-1 alpha-2 code';

/** True when `text` is a code `parseCountryHint` accepts (ISO 3166-1 alpha-2, any case). */
export function isCountryHint(text: string): boolean {
  return ACCEPTED.has(text.trim().toUpperCase());
}

/**
 * Validates `country_hint` (case-insensitive). Returns the region to parse national numbers
 * with, or undefined when there is no hint or the code is a real ISO code without a
 * numbering plan of its own (e.g. AQ, BV): such a hint cannot help, so it is ignored.
 * Throws VerityError('validation_error') for anything that is not an ISO alpha-2 code.
 */
export function parseCountryHint(hint: string | null | undefined): CountryCode | undefined {
  if (hint === undefined || hint === null) return undefined;
  if (typeof hint !== 'string' || !isCountryHint(hint))
    throw new VerityError('validation_error', COUNTRY_HINT_ERROR);
  const code = hint.trim().toUpperCase();
  return PHONE_REGIONS.has(code) ? (code as CountryCode) : undefined;
}
