import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { publicBaseUrl } from '../http/public-url';
import { componentSchemas } from './json-schema';
import { ADMIN_TOKEN_SCHEME, API_KEY_SCHEME } from './security-schemes';

/** Serves the OpenAPI 3 document at /v1/openapi.json and a browsable page at /v1/docs, without a key. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = app.get<AppConfig>(APP_CONFIG);
  const builder = new DocumentBuilder()
    .setTitle('Verity API')
    .setDescription(
      'Email, phone and IP validation, combined fraud scoring and batch CSV validation. ' +
        'Every error body is an Error: {"error":{"code","message"}}. See README.md for limits and conventions. ' +
        'A test key (vrt_test_…) answers offline, for free, and the magic inputs of docs/test-mode.md the same way forever.',
    )
    .setVersion('v1')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-Api-Key',
        description: 'An API key: vrt_live_… (live) or vrt_test_… (test mode)',
      },
      API_KEY_SCHEME,
    )
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'The operator token ADMIN_TOKEN' },
      ADMIN_TOKEN_SCHEME,
    )
    .addSecurityRequirements(API_KEY_SCHEME)
    .build();
  const document = SwaggerModule.createDocument(app, builder);
  document.components = { ...document.components, schemas: componentSchemas() };
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    yamlDocumentUrl: 'v1/openapi.yaml',
    // The base URL clients call: the one result_url links use (PUBLIC_URL, else the address
    // the request arrived on; never the Host header, which the client chooses).
    // Nest's Fastify adapter hands its routes Fastify's request.
    patchDocumentOnRequest: <R>(request: R, _reply: unknown, doc: OpenAPIObject) => ({
      ...doc,
      servers: [{ url: publicBaseUrl(config.PUBLIC_URL, request as FastifyRequest) }],
    }),
  });
}
