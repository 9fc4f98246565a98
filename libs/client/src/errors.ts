import type { ErrorCode } from '@verity/common';
import type { BatchJob } from '@verity/contracts/wire';

/** Root of every error this SDK throws, so one `instanceof` catches them all. */
export class VerityClientError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * A non-2xx answer of the API, in its error shape `{"error":{"code","message"}}`. Each
 * documented code has its own subclass; a code this version does not know stays a plain VerityApiError.
 */
export class VerityApiError extends VerityClientError {
  constructor(
    /** HTTP status of the answer. */
    readonly status: number,
    /** The API's machine-readable code (`rate_limited`, ...). */
    readonly code: string,
    message: string,
    /** `request_id` of the body or the `X-Request-Id` header: quote it to the operator. */
    readonly requestId: string | null,
  ) {
    super(message);
  }
}

/** 400 `validation_error`: a required field is missing or has the wrong type. */
export class ValidationError extends VerityApiError {}
/** 401 `unauthorized`: the API key is missing, wrong, rotated or deleted. */
export class UnauthorizedError extends VerityApiError {}
/** 402 `insufficient_credits`: the balance cannot pay for the call; the message links billing. */
export class InsufficientCreditsError extends VerityApiError {}
/** 403 `forbidden`: a download link is invalid or expired (`batch.download` renews it once). */
export class ForbiddenError extends VerityApiError {}
/** 404 `not_found`: unknown job or key (or another account's). */
export class NotFoundError extends VerityApiError {}
/** 410 `gone`: the job's result file passed its retention (RESULT_RETENTION_DAYS) and was deleted. */
export class GoneError extends VerityApiError {}
/** 408 `request_timeout`: an upload body stopped arriving for the server's idle timeout. */
export class RequestTimeoutError extends VerityApiError {}
/** 413 `payload_too_large`: a JSON body or an upload over the server's limit. */
export class PayloadTooLargeError extends VerityApiError {}
/** 422 `unprocessable`: well-formed but refused (bad IP, bad CSV, reused Idempotency-Key). */
export class UnprocessableError extends VerityApiError {}
/** 429 `rate_limited`, still refused after the retries. `retryAfterSeconds` is the last hint. */
export class RateLimitedError extends VerityApiError {
  retryAfterSeconds: number | null = null;
}
/** 431 `headers_too_large`: the request headers exceed the server's limit. */
export class HeadersTooLargeError extends VerityApiError {}
/** 500 `internal_error`: quote `requestId` when reporting it. */
export class InternalError extends VerityApiError {}
/** 503 `service_unavailable`, still refused after the retries (HLR or IP data down). */
export class ServiceUnavailableError extends VerityApiError {
  retryAfterSeconds: number | null = null;
}

type ApiErrorClass = new (
  status: number,
  code: string,
  message: string,
  requestId: string | null,
) => VerityApiError;

// Typed against the server's own code list: a code added there fails this build until the SDK
// has a class for it.
const BY_CODE: Record<ErrorCode, ApiErrorClass> = {
  validation_error: ValidationError,
  unauthorized: UnauthorizedError,
  insufficient_credits: InsufficientCreditsError,
  forbidden: ForbiddenError,
  not_found: NotFoundError,
  request_timeout: RequestTimeoutError,
  gone: GoneError,
  payload_too_large: PayloadTooLargeError,
  unprocessable: UnprocessableError,
  rate_limited: RateLimitedError,
  headers_too_large: HeadersTooLargeError,
  internal_error: InternalError,
  service_unavailable: ServiceUnavailableError,
};

/** The error for an answer with `status` and (when the body had one) a spec `code`. */
export function apiError(
  status: number,
  code: string | undefined,
  message: string,
  requestId: string | null,
): VerityApiError {
  const known = code !== undefined && Object.hasOwn(BY_CODE, code);
  const Class = known ? BY_CODE[code as ErrorCode] : VerityApiError;
  return new Class(status, code ?? `http_${status}`, message, requestId);
}

/** The server could not be reached, or the connection broke, after the allowed retries. */
export class VerityConnectionError extends VerityClientError {
  constructor(
    message: string,
    /** The server the request went to (`http://127.0.0.1:8080`). */
    readonly origin: string,
    /** What went wrong, in words: `connection refused`, `no answer within 60000 ms`, ... */
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** `batch.wait` saw the job end `failed`; `job` is its last state (credits were refunded). */
export class BatchFailedError extends VerityClientError {
  constructor(readonly job: BatchJob) {
    super(
      `batch job ${job.id} failed after ${job.processed_rows} of ${job.total_rows} rows` +
        (job.error ? `: ${job.error.code}: ${job.error.message}` : ''),
    );
  }
}

/** `batch.wait` gave up after `timeoutMs`; the job keeps running on the server. */
export class BatchTimeoutError extends VerityClientError {
  constructor(
    readonly job: BatchJob,
    readonly timeoutMs: number,
  ) {
    super(
      `batch job ${job.id} still ${job.status} after ${timeoutMs} ms (${job.processed_rows} of ${job.total_rows} rows); it keeps running`,
    );
  }
}

/** `webhooks.verify` refused a delivery: signature `invalid`, or genuine but `expired`. */
export class WebhookSignatureError extends VerityClientError {
  constructor(readonly reason: 'invalid' | 'expired') {
    super(
      reason === 'expired'
        ? 'webhook signature timestamp is outside the tolerance (replayed or clock skew)'
        : 'webhook signature does not match the body',
    );
  }
}
