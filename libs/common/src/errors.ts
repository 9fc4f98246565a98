/**
 * Machine-readable error codes of the API (docs/api.md), plus `forbidden` for the download signature (403),
 * `gone` for a result past its retention (410), and the two answers node:http itself can give
 * (a request too slow, headers too large).
 */
export const ERROR_CODES = {
  validation_error: 400,
  unauthorized: 401,
  insufficient_credits: 402,
  forbidden: 403,
  not_found: 404,
  request_timeout: 408,
  gone: 410,
  payload_too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  service_unavailable: 503,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/**
 * The one error type of the domain: a code from {@link ERROR_CODES} and a message safe to show
 * a client. Anything that is not a VerityError becomes `internal_error` at the edge.
 */
export class VerityError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'VerityError';
  }

  get status(): number {
    return ERROR_CODES[this.code];
  }
}

/**
 * An input value the engine cannot read (a non-IP given to the IP engine): 422 to an API
 * caller; in a batch file, that row's invalid result.
 */
export class InvalidInputError extends VerityError {
  constructor(message: string) {
    super('unprocessable', message);
  }
}

/** The upstream dependencies a 503 names (metrics label; never shown to clients). */
export type UpstreamDependency = 'hlr' | 'ip_data';

/** Raised when an upstream dependency (HLR provider, IP database) cannot answer. */
export class UpstreamUnavailableError extends VerityError {
  constructor(
    message: string,
    readonly dependency: UpstreamDependency,
    headers: Readonly<Record<string, string>> = {},
  ) {
    super('service_unavailable', message, headers);
    this.name = 'UpstreamUnavailableError';
  }
}
