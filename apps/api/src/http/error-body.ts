import { ERROR_CODES, type ErrorCode } from '@verity/common';

/** The API's error shape (docs/api.md): every non-2xx body is `{ "error": { "code", "message" } }`. */
export interface ErrorBody {
  error: { code: ErrorCode; message: string; request_id?: string };
}

export function errorBody(code: ErrorCode, message: string, requestId?: string): ErrorBody {
  return { error: requestId ? { code, message, request_id: requestId } : { code, message } };
}

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code];
}
