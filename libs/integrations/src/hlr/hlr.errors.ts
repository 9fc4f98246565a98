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

/** What the client reads: a server without a provider is not a passing outage. */
const NOT_CONFIGURED =
  'No HLR provider is configured on this server (HLR_PROVIDER=none): send the request without hlr, or ask the operator to set one up';
const UNAVAILABLE = 'The HLR provider is temporarily unavailable';

/**
 * Failures that pass on their own (the provider slow, unreachable or answering badly for a
 * while): their 503 carries `Retry-After`, so clients retry. A server without a provider, or
 * with credentials or an address the provider refuses, needs the operator: no `Retry-After`,
 * and clients give up at once.
 */
const PASSING: ReadonlySet<HlrFailureReason> = new Set([
  'timeout',
  'network_error',
  'http_error',
  'bad_response',
  'lookup_failed',
  'closed',
]);

/** Seconds a client waits before retrying a passing HLR failure. */
export const HLR_RETRY_AFTER_SECONDS = 5;

/** An HLR lookup that could not be answered; maps to 503 service_unavailable, nothing charged. */
export class HlrUnavailableError extends UpstreamUnavailableError {
  constructor(
    readonly reason: HlrFailureReason,
    /** Internal detail for logs; the client sees only the message of its reason's kind. */
    readonly detail: string,
  ) {
    super(
      reason === 'not_configured' ? NOT_CONFIGURED : UNAVAILABLE,
      'hlr',
      PASSING.has(reason) ? { 'Retry-After': String(HLR_RETRY_AFTER_SECONDS) } : {},
    );
    this.name = 'HlrUnavailableError';
  }
}
