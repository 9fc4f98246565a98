import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** Serves the OpenAPI 3 document at /v1/openapi.json and a browsable page at /v1/docs, without a key. */
export function setupOpenApi(app: NestFastifyApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Verity API')
    .setDescription(
      'Email, phone and IP validation, combined fraud scoring and batch CSV validation. ' +
        'Every error body is {"error":{"code","message"}}. See README.md for limits and conventions.',
    )
    .setVersion('v1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, 'ApiKey')
    .addBearerAuth()
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('v1/docs', app, document, {
    jsonDocumentUrl: 'v1/openapi.json',
    yamlDocumentUrl: 'v1/openapi.yaml',
  });
}
