import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';
import { publicBaseUrl } from '../http/public-url';
import { componentSchemas } from './json-schema';
import { ADMIN_TOKEN_SCHEME, API_KEY_SCHEME } from './security-schemes';

/**
 * What the Swagger UI page may load: its own scripts and styles (Swagger UI sets inline
 * styles), the document from this server; nothing from elsewhere, and no framing.
 */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Serves the OpenAPI 3 document at /v1/openapi.json and a browsable page at /v1/docs, without a key. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = app.get<CoreConfig>(CORE_CONFIG);
  secureDocsPages(app);
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
    // The page shows this server's document only: the URL is fixed here, so a `?url=` in a
    // link cannot make it load (and run in this origin) a document from elsewhere.
    swaggerUrl: '/v1/openapi.json',
    // No call to swagger.io's online validator.
    swaggerOptions: { validatorUrl: 'none', queryConfigEnabled: false },
    // The base URL clients call: the one result_url links use (PUBLIC_URL, else the address
    // the request arrived on; never the Host header, which the client chooses).
    // Nest's Fastify adapter hands its routes Fastify's request.
    patchDocumentOnRequest: <R>(request: R, _reply: unknown, doc: OpenAPIObject) => ({
      ...doc,
      servers: [{ url: publicBaseUrl(config.PUBLIC_URL, request as FastifyRequest) }],
    }),
  });
}

/**
 * Every route under /v1/docs (the page, its init script, swagger-ui-dist's files) answers with
 * DOCS_CSP. Added per route when it is registered, so no other request pays for a hook.
 */
function secureDocsPages(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      if (!route.url.startsWith('/v1/docs')) return;
      const onSend = route.onSend ? [route.onSend].flat() : [];
      route.onSend = [
        ...onSend,
        (_request, reply, payload, done) => {
          void reply
            .header('Content-Security-Policy', DOCS_CSP)
            .header('X-Content-Type-Options', 'nosniff');
          done(null, typeof payload === 'string' ? withoutQueryUrl(payload) : payload);
        },
      ];
    });
}

/**
 * Nest's Swagger UI init script takes a document URL from the page's `?url=` (then overridden
 * by `swaggerUrl`); the read is taken out, so the page never looks at its query at all.
 */
function withoutQueryUrl(script: string): string {
  return script.replace(
    /let url = window\.location\.search[\s\S]*?url = window\.location\.origin;\s*\}/,
    'let url = undefined;',
  );
}
