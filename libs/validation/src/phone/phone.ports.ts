import type { HlrResult } from '@verity/contracts';

/**
 * Original range holder of a number, from Google's carrier prefix data. Synchronous on
 * purpose: the table is loaded once at boot, so a lookup is a few Map reads.
 */
export interface CarrierLookup {
  /** Carrier name for a national significant number under a country calling code, or null. */
  lookup(countryCallingCode: string, nationalNumber: string): string | null;
}

/** What a live HLR provider answers, in provider-neutral terms. */
export type HlrLookupResult = HlrResult & {
  /** Network currently serving the number (the porting target when ported), if the provider says. */
  currentNetwork?: string | null;
};

/**
 * Live HLR lookup port. Adapters throw UpstreamUnavailableError when the provider cannot
 * give an answer (down, timeout, 5xx, auth failure, not configured).
 */
export interface HlrProvider {
  /** Looks up a number given in E.164 form. */
  lookup(e164: string): Promise<HlrLookupResult>;
}
