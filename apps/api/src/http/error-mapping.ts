import { HttpException } from '@nestjs/common';
import { infraOutageOf, VerityError, type ErrorCode, type InfraDependency } from '@verity/common';

/** What a thrown value becomes on the wire. `internal` errors are logged with their stack. */
export interface MappedError {
  code: ErrorCode;
  message: string;
  headers: Readonly<Record<string, string>>;
  internal: boolean;
  /** The dependency behind a 503 for an infrastructure outage (metrics label). */
  outage?: InfraDependency;
}

/**
 * Seconds a client is told to wait after a 503 for an infrastructure outage (`Retry-After`;
 * an HLR that is not configured will not be back in 5 s, so its 503 names no time). Outages we survive are
 * restarts and failovers of seconds to a minute; 5 s lets the reference client's 1-2-4 s
 * schedule stretch a little without making a client wait long after recovery.
 */
export const RETRY_AFTER_SECONDS = 5;
const RETRY_LATER = { 'Retry-After': String(RETRY_AFTER_SECONDS) };

interface FastifyLikeError {
  code?: string;
  statusCode?: number;
  message?: string;
}

// Fastify's own errors (body parsing, limits) carry a FST_* code; map each to an error code.
const FASTIFY_CODES: Record<string, { code: ErrorCode; message: (e: FastifyLikeError) => string }> =
  {
    FST_ERR_CTP_INVALID_JSON_BODY: {
      code: 'validation_error',
      message: () => 'request body is not valid JSON',
    },
    FST_ERR_CTP_EMPTY_JSON_BODY: {
      code: 'validation_error',
      message: () => 'request body is empty; send a JSON object',
    },
    FST_ERR_CTP_INVALID_MEDIA_TYPE: {
      code: 'validation_error',
      message: () => 'unsupported Content-Type; send application/json',
    },
    FST_ERR_CTP_INVALID_CONTENT_LENGTH: {
      code: 'validation_error',
      message: () => 'Content-Length does not match the body',
    },
    FST_ERR_CTP_BODY_TOO_LARGE: {
      code: 'payload_too_large',
      message: () => 'request body is too large',
    },
    FST_REQ_FILE_TOO_LARGE: {
      code: 'payload_too_large',
      message: () => 'uploaded file is too large',
    },
  };

const HTTP_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'validation_error',
  401: 'unauthorized',
  402: 'insufficient_credits',
  403: 'forbidden',
  404: 'not_found',
  405: 'not_found',
  413: 'payload_too_large',
  415: 'validation_error',
  422: 'unprocessable',
  429: 'rate_limited',
  503: 'service_unavailable',
};

const HTTP_STATUS_MESSAGES: Record<number, string> = {
  404: 'no such route',
  405: 'no such route',
  413: 'request body is too large',
  415: 'unsupported Content-Type; send application/json',
};

export function mapError(error: unknown): MappedError {
  if (error instanceof VerityError) {
    return { code: error.code, message: error.message, headers: error.headers, internal: false };
  }
  const outage = infraOutageOf(error);
  if (outage !== null) {
    return {
      code: 'service_unavailable',
      message: 'a service Verity depends on is temporarily unavailable; retry later',
      headers: RETRY_LATER,
      internal: false,
      outage,
    };
  }
  const fastify = error as FastifyLikeError;
  if (typeof fastify?.code === 'string' && FASTIFY_CODES[fastify.code]) {
    const m = FASTIFY_CODES[fastify.code];
    return { code: m.code, message: m.message(fastify), headers: {}, internal: false };
  }
  if (error instanceof SyntaxError && /JSON/.test(error.message)) {
    return {
      code: 'validation_error',
      message: 'request body is not valid JSON',
      headers: {},
      internal: false,
    };
  }
  if (error instanceof HttpException) {
    // Nest wraps Fastify's body-parser errors in HttpException, keeping status and message.
    const status = error.getStatus();
    const code = HTTP_STATUS_CODES[status];
    const message = HTTP_STATUS_MESSAGES[status] ?? error.message;
    if (code) return { code, message, headers: {}, internal: false };
  }
  if (typeof fastify?.statusCode === 'number' && HTTP_STATUS_CODES[fastify.statusCode]) {
    const code = HTTP_STATUS_CODES[fastify.statusCode];
    return { code, message: fastify.message ?? code, headers: {}, internal: false };
  }
  return { code: 'internal_error', message: 'internal error', headers: {}, internal: true };
}
