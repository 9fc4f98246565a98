// Phone engine: libphonenumber (max metadata) + Google carrier prefixes + optional live HLR.
export { createPhoneEngine } from './phone.engine';
export type { PhoneEngine, PhoneEngineDeps, PhoneRequest } from './phone.engine';
export type { CarrierLookup, HlrLookupResult, HlrProvider } from './phone.ports';
export { isCountryHint, parseCountryHint, COUNTRY_HINT_ERROR } from './country-hint';
export { mapLineType } from './line-type';
export { scorePhone, PHONE_SCORE_WEIGHTS, type PhoneScoreInput } from './phone.scorer';
