import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { z } from 'zod';
import { errorSchema } from '@verity/contracts';
import { openApiSchema } from './json-schema';

const ERROR_STATUSES: Record<number, string> = {
  400: 'validation_error: invalid body, missing field or wrong type',
  401: 'unauthorized: missing or invalid X-Api-Key',
  402: 'insufficient_credits: the balance cannot pay for the call',
  403: 'forbidden: download signature invalid, tampered or expired; fetch the job again',
  404: 'not_found',
  410: 'gone: the result file passed its retention (RESULT_RETENTION_DAYS after the job ended) and was deleted',
  413: 'payload_too_large: body over the size limit',
  422: 'unprocessable: parsed but semantically invalid',
  429: 'rate_limited: too many requests; see Retry-After',
  503: 'service_unavailable: a dependency (HLR, IP data, database, storage, Redis) is down; Retry-After says when to retry (infrastructure outages); nothing was charged',
};

interface DocOptions {
  summary: string;
  body?: z.ZodType;
  ok: z.ZodType;
  okStatus?: number;
  errors: number[];
  authenticated?: boolean;
}

/** OpenAPI metadata for a route, generated from the same zod schemas the route validates with. */
export function ApiDoc(options: DocOptions): MethodDecorator {
  const decorators = [
    ApiOperation({ summary: options.summary }),
    ApiResponse({ status: options.okStatus ?? 200, schema: openApiSchema(options.ok) }),
    // Every route reads the database (keys, jobs, credits): any of them is 503 while it is down.
    ...[...new Set([...options.errors, 503])].map((status) =>
      ApiResponse({
        status,
        description: ERROR_STATUSES[status] ?? String(status),
        schema: openApiSchema(errorSchema),
      }),
    ),
  ];
  if (options.body) decorators.push(ApiBody({ schema: openApiSchema(options.body, 'input') }));
  if (options.authenticated !== false) decorators.push(ApiSecurity('ApiKey'));
  return applyDecorators(...decorators);
}
