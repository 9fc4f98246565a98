import type { ApiResponseSchemaHost } from '@nestjs/swagger';
import { z } from 'zod';

/** OpenAPI 3.0 schema object as @nestjs/swagger's decorators take it. */
export type OpenApiSchema = ApiResponseSchemaHost['schema'];

/** The OpenAPI 3.0 schema of a zod schema: request bodies as input, responses as output. */
export function openApiSchema(schema: z.ZodType, io: 'input' | 'output' = 'output'): OpenApiSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, {
    target: 'openapi-3.0',
    io,
  }) as Record<string, unknown>;
  return rest;
}
