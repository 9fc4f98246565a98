import { applyDecorators } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiSecurity,
} from '@nestjs/swagger';
import type { z } from 'zod';
import { errorSchema } from '@verity/contracts';
import { schemaRef } from './json-schema';
import { ADMIN_TOKEN_SCHEME, API_KEY_SCHEME } from './security-schemes';

const ERROR_STATUSES: Record<number, string> = {
  400: 'validation_error: invalid body, missing field or wrong type',
  401: 'unauthorized: missing or invalid X-Api-Key',
  402: 'insufficient_credits: the balance cannot pay for the call',
  403: 'forbidden: download signature invalid, tampered or expired; fetch the job again',
  404: 'not_found',
  408: 'request_timeout: the body arrived too slowly (BODY_TIMEOUT_MS, BODY_MIN_BYTES_PER_SECOND) and the connection was closed',
  410: 'gone: the result file passed its retention (RESULT_RETENTION_DAYS after the job ended) and was deleted',
  413: 'payload_too_large: body over the size limit',
  422: 'unprocessable: parsed but semantically invalid',
  429: 'rate_limited: too many requests; see Retry-After',
  500: 'internal_error: unexpected server error; the log has the request id',
  503: 'service_unavailable: a dependency (HLR, IP data, database, storage, Redis) is down; Retry-After says when to retry (infrastructure outages); nothing was charged',
};

/** Answers that carry `Retry-After` (RFC 9110, section 10.2.3). */
const RETRY_AFTER = {
  'Retry-After': {
    description: 'Seconds to wait before retrying (RFC 9110, section 10.2.3)',
    schema: { type: 'integer', format: 'int32' },
  },
} as const;

/** Who may call a route: an API key (the default), the operator's ADMIN_TOKEN, or anyone. */
export type DocAuth = 'apiKey' | 'admin' | 'none';

interface DocOptions {
  /** The name generated clients give the method (docs/api.md lists them). */
  operationId: string;
  summary: string;
  /** A JSON body, named in @verity/contracts' REQUEST_COMPONENTS. */
  body?: z.ZodType;
  /** A multipart/form-data body, named in REQUEST_COMPONENTS. */
  form?: z.ZodType;
  /** The success answer: a JSON shape, a CSV file, or nothing (204). */
  ok: z.ZodType | 'text/csv' | null;
  okStatus?: number;
  okDescription: string;
  /** Headers of the success answer. */
  okHeaders?: Record<string, { description: string; schema: object }>;
  errors: number[];
  /** What an error status means on this route, where it differs from the usual meaning. */
  errorNotes?: Partial<Record<number, string>>;
  auth?: DocAuth;
}

/** OpenAPI metadata for a route, generated from the same zod schemas the route validates with. */
export function ApiDoc(options: DocOptions): MethodDecorator {
  const auth = options.auth ?? 'apiKey';
  const decorators = [
    ApiOperation({
      operationId: options.operationId,
      summary: options.summary,
      ...(auth === 'none' && { security: [] }),
    }),
    ApiResponse({
      status: options.okStatus ?? 200,
      description: options.okDescription,
      ...(options.ok !== null && { content: okContent(options.ok) }),
      ...(options.okHeaders && { headers: options.okHeaders }),
    }),
    // Every route reads the database (keys, jobs, credits): any of them is 503 while it is
    // down, and any of them can fail unexpectedly (500).
    ...errorStatuses(options).map((status) =>
      ApiResponse({
        status,
        description: options.errorNotes?.[status] ?? ERROR_STATUSES[status] ?? String(status),
        content: { 'application/json': { schema: schemaRef(errorSchema) } },
        ...((status === 429 || status === 503) && { headers: RETRY_AFTER }),
      }),
    ),
  ];
  if (options.body) decorators.push(ApiBody({ required: true, schema: schemaRef(options.body) }));
  if (options.form) {
    decorators.push(
      ApiConsumes('multipart/form-data'),
      ApiBody({ required: true, schema: schemaRef(options.form) }),
    );
  }
  if (auth === 'apiKey') decorators.push(ApiSecurity(API_KEY_SCHEME));
  if (auth === 'admin') decorators.push(ApiSecurity(ADMIN_TOKEN_SCHEME));
  return applyDecorators(...decorators);
}

function okContent(ok: z.ZodType | 'text/csv'): Record<string, { schema: object }> {
  if (ok === 'text/csv') return { 'text/csv': { schema: { type: 'string' } } };
  return { 'application/json': { schema: schemaRef(ok) } };
}

/** The route's error statuses; a body can always be too large or too slow (docs/operations.md). */
function errorStatuses(options: DocOptions): number[] {
  const statuses = [...options.errors, 500, 503];
  if (options.body || options.form) statuses.push(408, 413);
  return [...new Set(statuses)].sort((a, b) => a - b);
}

/** The `explain` query flag: the string `true` adds evidence to the answer, anything else does not. */
export function ApiExplain(description: string): MethodDecorator {
  return ApiQuery({
    name: 'explain',
    required: false,
    description,
    schema: { type: 'boolean', default: false },
  });
}
