import type { ApiResponseSchemaHost } from '@nestjs/swagger';
import { z } from 'zod';
import { REQUEST_COMPONENTS, RESPONSE_COMPONENTS } from '@verity/contracts';

/** A `$ref` to a component schema, as @nestjs/swagger's decorators take it. */
export interface SchemaRef {
  $ref: string;
}

/** An OpenAPI 3.0 schema object. */
export type SchemaObject = ApiResponseSchemaHost['schema'];

const COMPONENT_PATH = '#/components/schemas/';
const INT32 = { min: -2_147_483_648, max: 2_147_483_647 };

/** Each shape's component name: a documented shape that has none is a programming error. */
const NAMES = new Map<z.ZodType, string>(
  [...Object.entries(REQUEST_COMPONENTS), ...Object.entries(RESPONSE_COMPONENTS)].map(
    ([name, schema]) => [schema, name],
  ),
);

/** `{ $ref }` to the component of a shape named in @verity/contracts' `*_COMPONENTS`. */
export function schemaRef(schema: z.ZodType): SchemaRef {
  const name = NAMES.get(schema);
  if (name === undefined)
    throw new Error('a documented shape has no component name in @verity/contracts');
  return { $ref: `${COMPONENT_PATH}${name}` };
}

let built: Record<string, SchemaObject> | undefined;

/**
 * `components.schemas` of the OpenAPI 3.0 document, generated from the zod shapes the routes
 * validate and serialise with: requests as input (what the server accepts), responses as output.
 */
export function componentSchemas(): Record<string, SchemaObject> {
  built ??= {
    ...convert(REQUEST_COMPONENTS, 'input'),
    ...convert(RESPONSE_COMPONENTS, 'output'),
  };
  return built;
}

function convert(
  components: Readonly<Record<string, z.ZodType>>,
  io: 'input' | 'output',
): Record<string, SchemaObject> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(components)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    target: 'openapi-3.0',
    io,
    uri: (id) => `${COMPONENT_PATH}${id}`,
  });
  const typeOf = (ref: string) => schemas[ref.slice(COMPONENT_PATH.length)]?.type;
  return Object.fromEntries(
    Object.entries(schemas).map(([id, schema]) => [
      id,
      forGenerators(schema, typeOf) as SchemaObject,
    ]),
  );
}

/**
 * zod's OpenAPI 3.0 output, rewritten where client generators (OpenAPI Generator, docs/api.md)
 * read it differently from what it means, never changing what a valid message is:
 * - `$id`, `$schema` and `contentEncoding` are JSON Schema keywords OpenAPI 3.0 does not have;
 * - a lone `allOf: [{ $ref }]` (zod's wrapper of an optional named shape) is the `$ref` itself,
 *   and a nullable one states the type of its target (OpenAPI 3.0.3: `nullable` needs `type`);
 * - `additionalProperties: false` on answers goes: fields are only added within v1, and a
 *   client must not fail on one it does not know yet;
 * - an integer literal (`credits_used: 0` of ping) is `{type: number, enum: [0]}`, which
 *   OpenAPI Generator's Java `native` client turns into code that does not compile
 *   (`BigDecimal.valueOf(new BigDecimal("0"))`); it becomes an integer with minimum = maximum;
 * - integers get a format: `int64` unless their bounds fit 32 bits (credit balances can pass
 *   2^31; zod's safe-integer bounds are dropped, int64 says as much);
 * - a nullable object that is always present (`hlr`) is listed as not required: the okhttp-gson
 *   client of OpenAPI Generator 7.10.0 checks a required object property without a null check
 *   and fails on every such answer (docs/api.md). Every answer still matches the schema.
 */
function forGenerators(node: unknown, typeOf: (ref: string) => unknown): unknown {
  if (Array.isArray(node)) return node.map((item) => forGenerators(item, typeOf));
  if (node === null || typeof node !== 'object') return node;
  const schema: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$id' || key === '$schema' || key === 'contentEncoding') continue;
    if (key === 'additionalProperties' && value === false) continue;
    schema[key] = forGenerators(value, typeOf);
  }
  const allOf = Array.isArray(schema.allOf) ? (schema.allOf as { $ref?: string }[]) : [];
  const only = allOf.length === 1 ? allOf[0] : undefined;
  const ref = only?.$ref;
  if (ref !== undefined && Object.keys(schema).length === 1) return only;
  if (ref !== undefined && schema.nullable === true && schema.type === undefined)
    schema.type = typeOf(ref);
  integerLiteral(schema);
  integerFormat(schema);
  optionalNullableObjects(schema);
  return schema;
}

function integerLiteral(schema: Record<string, unknown>): void {
  const values = schema.enum;
  if (schema.type !== 'number' || !Array.isArray(values) || values.length !== 1) return;
  const [value] = values as unknown[];
  if (typeof value !== 'number' || !Number.isInteger(value)) return;
  delete schema.enum;
  Object.assign(schema, { type: 'integer', minimum: value, maximum: value });
}

function integerFormat(schema: Record<string, unknown>): void {
  if (schema.type !== 'integer') return;
  for (const bound of ['minimum', 'maximum'] as const) {
    if (Math.abs(schema[bound] as number) === Number.MAX_SAFE_INTEGER) delete schema[bound];
  }
  const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
  const fits =
    minimum !== undefined && maximum !== undefined && minimum >= INT32.min && maximum <= INT32.max;
  schema.format = fits ? 'int32' : 'int64';
}

function optionalNullableObjects(schema: Record<string, unknown>): void {
  const properties = schema.properties as Record<string, Record<string, unknown>> | undefined;
  if (!properties || !Array.isArray(schema.required)) return;
  const nullableObject = (p: Record<string, unknown>) =>
    p.nullable === true && (p.type === 'object' || Array.isArray(p.allOf) || '$ref' in p);
  schema.required = (schema.required as string[]).filter(
    (name) => !properties[name] || !nullableObject(properties[name]),
  );
  if ((schema.required as string[]).length === 0) delete schema.required;
}
