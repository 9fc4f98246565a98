import { UpstreamUnavailableError } from '@verity/common';

/** Why a live HLR lookup gave no answer (metrics label; never shown to clients). */
export type HlrFailureReason =
  | 'not_configured'
  | 'timeout'
  | 'network_error'
  | 'redirect'
  | 'auth_failed'
  | 'http_error'
  | 'bad_response'
  | 'lookup_failed'
  | 'closed';

/** An HLR lookup that could not be answered; maps to 503 service_unavailable, nothing charged. */
export class HlrUnavailableError extends UpstreamUnavailableError {
  constructor(
    readonly reason: HlrFailureReason,
    /** Internal detail for logs; the client sees only the generic message. */
    readonly detail: string,
  ) {
    super('The HLR provider is temporarily unavailable', 'hlr');
    this.name = 'HlrUnavailableError';
  }
}
