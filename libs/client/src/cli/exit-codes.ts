import {
  BatchFailedError,
  BatchTimeoutError,
  InsufficientCreditsError,
  RateLimitedError,
  ServiceUnavailableError,
  UnauthorizedError,
  VerityApiError,
  VerityConnectionError,
} from '../index';
import { UsageError } from './usage.error';

/** Exit codes of the client commands (README "The verity command" has the same table). */
export const EXIT = {
  ok: 0,
  /** internal_error, or anything unexpected */
  failure: 1,
  usage: 2,
  /** validation_error, forbidden, not_found, request_timeout, payload_too_large, unprocessable, headers_too_large */
  refused: 3,
  unauthorized: 4,
  insufficientCredits: 5,
  /** still rate_limited after the retries */
  rateLimited: 6,
  /** still service_unavailable after the retries, or the server cannot be reached */
  unavailable: 7,
  batchFailed: 8,
  waitTimeout: 9,
  /** Ctrl-C: 128 + SIGINT, as shells report it */
  interrupted: 130,
} as const;

/** Ctrl-C stopped a command; the message says what is left running and how to resume. */
export class InterruptedError extends Error {}

/** The exit code for an error a client command ended with. */
export function exitCodeOf(error: unknown): number {
  if (error instanceof UsageError) return EXIT.usage;
  if (error instanceof InterruptedError) return EXIT.interrupted;
  if (error instanceof BatchFailedError) return EXIT.batchFailed;
  if (error instanceof BatchTimeoutError) return EXIT.waitTimeout;
  if (error instanceof VerityConnectionError || error instanceof ServiceUnavailableError)
    return EXIT.unavailable;
  if (error instanceof RateLimitedError) return EXIT.rateLimited;
  if (error instanceof InsufficientCreditsError) return EXIT.insufficientCredits;
  if (error instanceof UnauthorizedError) return EXIT.unauthorized;
  if (error instanceof VerityApiError) return error.status >= 500 ? EXIT.failure : EXIT.refused;
  return EXIT.failure;
}
