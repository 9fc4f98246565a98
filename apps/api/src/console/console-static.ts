import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Where `npm run build` puts the console (scripts/build-console.mjs): dist/console. */
export const CONSOLE_DIST = join(__dirname, '..', '..', '..', '..', 'console');

function notFound(reply: FastifyReply, message: string): FastifyReply {
  return reply
    .code(404)
    .header('Content-Type', 'application/json; charset=utf-8')
    .send({ error: { code: 'not_found', message } });
}

/**
 * Serves the console's single-page app from the API process, offline: hashed assets under
 * /console/assets with a year of immutable caching, and index.html (never cached, so a deploy
 * is picked up at once) for /console and every page below it, so deep links such as
 * /console/billing open that page. /console/api/* stays JSON: an unknown endpoint is a 404 in
 * the error shape, never the HTML page. /favicon.ico is the console's icon.
 */
export async function registerConsoleStatic(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const indexFile = join(CONSOLE_DIST, 'index.html');
  const index = existsSync(indexFile) ? readFileSync(indexFile) : null;
  if (existsSync(join(CONSOLE_DIST, 'assets'))) {
    await fastify.register(fastifyStatic, {
      root: join(CONSOLE_DIST, 'assets'),
      prefix: '/console/assets/',
      maxAge: '365d',
      immutable: true,
      index: false,
    });
  }
  const page = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    if (request.url.startsWith('/console/api/') || request.url.startsWith('/console/assets/'))
      return notFound(reply, `no such console resource: ${request.url.split('?')[0]}`);
    if (!index) return notFound(reply, 'the console is not built: run npm run build');
    return reply
      .header('Content-Type', 'text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .header('X-Frame-Options', 'DENY')
      .header(
        'Content-Security-Policy',
        "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'",
      )
      .send(index);
  };
  fastify.get('/console', page);
  fastify.get('/console/*', page);
  const iconFile = join(CONSOLE_DIST, 'favicon.svg');
  const icon = existsSync(iconFile) ? readFileSync(iconFile) : null;
  // Browsers ask for /favicon.ico whatever the page names; the SVG is served under that name.
  fastify.get('/favicon.ico', (_request, reply) =>
    icon
      ? reply
          .header('Content-Type', 'image/svg+xml')
          .header('Cache-Control', 'public, max-age=86400')
          .send(icon)
      : notFound(reply, 'the console is not built: run npm run build'),
  );
}
