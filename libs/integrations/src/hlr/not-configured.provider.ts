import type { HlrLookupResult, HlrProvider } from '@verity/validation';
import { HlrUnavailableError } from './hlr.errors';

/** HLR_PROVIDER=none: every live lookup is a 503, so nothing is charged. */
export class NotConfiguredHlrProvider implements HlrProvider {
  /** Always throws HlrUnavailableError('not_configured'). */
  lookup(_e164: string): Promise<HlrLookupResult> {
    return Promise.reject(new HlrUnavailableError('not_configured', 'HLR_PROVIDER=none'));
  }
}
