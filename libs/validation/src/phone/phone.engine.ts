import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { UpstreamUnavailableError } from '@verity/common';
import type { HlrResult, LineType, PhoneFields } from '@verity/contracts';
import { parseCountryHint } from './country-hint';
import { mapLineType } from './line-type';
import { normaliseCompatibilityForms, vanityToDigits } from './phone.input';
import type { CarrierLookup, HlrProvider } from './phone.ports';
import { scorePhone } from './phone.scorer';

/** A phone validation request as the API and the batch scorer see it. */
export interface PhoneRequest {
  phone: string;
  country_hint?: string | null;
  hlr?: boolean;
}

/** The phone engine: offline parsing + range-holder carrier, optional live HLR. */
export interface PhoneEngine {
  /** Validates one number. Throws VerityError('validation_error') for a bad country_hint. */
  validate(req: PhoneRequest): Promise<PhoneFields>;
}

/** Dependencies of the phone engine; all I/O is injected. */
export interface PhoneEngineDeps {
  carriers: CarrierLookup;
  hlr?: HlrProvider;
}

interface OfflineAnalysis {
  parsed: boolean;
  valid: boolean;
  e164: string | null;
  country: string | null;
  line_type: LineType;
  carrier: string | null;
  /** FIXED_LINE_OR_MOBILE without a carrier entry: a live HLR answer can settle it. */
  ambiguous: boolean;
}

const UNPARSEABLE: OfflineAnalysis = {
  parsed: false,
  valid: false,
  e164: null,
  country: null,
  line_type: 'unknown',
  carrier: null,
  ambiguous: false,
};

const PARSED_INVALID: OfflineAnalysis = { ...UNPARSEABLE, parsed: true };

/** Builds the phone engine over a carrier table and, optionally, a live HLR provider. */
export function createPhoneEngine(deps: PhoneEngineDeps): PhoneEngine {
  const { carriers, hlr } = deps;

  // Full-width forms are normalised first. Letters are read on the keypad first when there
  // are three or more (the parser would otherwise stop at the first letter and could find a
  // shorter valid number); if that is no valid number, the text is parsed as typed, which
  // keeps extensions such as "ext. 12".
  function analyse(typed: string, region: CountryCode | undefined): OfflineAnalysis {
    const text = normaliseCompatibilityForms(typed);
    const vanity = vanityToDigits(text);
    if (vanity !== null) {
      const converted = analyseText(vanity, region);
      if (converted.valid) return converted;
    }
    return analyseText(text, region);
  }

  // One parse per call: parse, isValid and getType are the library floor; everything
  // else here is a few Map reads.
  function analyseText(text: string, region: CountryCode | undefined): OfflineAnalysis {
    const number = parsePhoneNumberFromString(text, region ? { defaultCountry: region } : {});
    if (number === undefined) return UNPARSEABLE;
    // An invalid number gets no e164/country: echoing a normalised form of a number that
    // cannot exist would read as a confirmation. `parsed` only lifts the score a little.
    if (!number.isValid()) return PARSED_INVALID;
    // Regions sharing a calling code (GB/IM/GG/JE, AU/CC/CX, FI/AX, IT/VA ...): where
    // ranges overlap the library names the main region, even with a hint for another one.
    const type = number.getType();
    const carrier = carriers.lookup(number.countryCallingCode, number.nationalNumber);
    return {
      parsed: true,
      valid: true,
      e164: number.number,
      country: number.country ?? null,
      line_type: mapLineType(type, carrier !== null),
      carrier,
      ambiguous: type === 'FIXED_LINE_OR_MOBILE' && carrier === null,
    };
  }

  async function liveLookup(
    offline: OfflineAnalysis,
  ): Promise<OfflineAnalysis & { hlr: HlrResult }> {
    if (hlr === undefined)
      throw new UpstreamUnavailableError('HLR lookups are not configured', 'hlr');
    // Nothing to ask the network about for a number that is not valid: answer without
    // spending a provider lookup.
    if (!offline.valid || offline.e164 === null) {
      return { ...offline, hlr: { status: 'unavailable', ported: null, roaming: null } };
    }
    const answer = await hlr.lookup(offline.e164);
    const result: HlrResult = {
      status: answer.status,
      ported: answer.ported,
      roaming: answer.roaming,
    };
    let { carrier, line_type } = offline;
    // The range holder is the ORIGINAL carrier; after porting the HLR knows the real one.
    if (answer.ported === true && answer.currentNetwork) carrier = answer.currentNetwork;
    // Only mobile subscribers live in an HLR, so an active answer settles NANP-style ambiguity.
    if (offline.ambiguous && answer.status === 'active') line_type = 'mobile';
    return { ...offline, carrier, line_type, hlr: result };
  }

  return {
    async validate(req: PhoneRequest): Promise<PhoneFields> {
      const region = parseCountryHint(req.country_hint);
      const offline = analyse(req.phone, region);
      const full = req.hlr === true ? await liveLookup(offline) : { ...offline, hlr: null };
      return {
        input: req.phone,
        valid: full.valid,
        e164: full.e164,
        country: full.country,
        line_type: full.line_type,
        carrier: full.carrier,
        hlr: full.hlr,
        score: scorePhone(full),
      };
    },
  };
}
