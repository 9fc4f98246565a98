import { applyDecorators } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RouteConfig, RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { z } from 'zod';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiKeyGuard } from './api-key.guard';

const API_CALL = 'verityApiCall';

/**
 * Marks a single-call route (the hot path): its key check and rate limit run as one Fastify
 * preHandler, before Nest's router, instead of a chain of Nest guards (errors thrown there
 * reach Fastify's error handler, which Nest routes through AllErrorsFilter like any other),
 * and its 200 answer is serialised by fast-json-stringify from `ok`, the zod schema the
 * OpenAPI document shows, instead of JSON.stringify.
 */
export function ApiCall(ok: z.ZodType): MethodDecorator {
  const response = z.toJSONSchema(ok, { target: 'draft-7', io: 'output' });
  return applyDecorators(
    RouteConfig({ [API_CALL]: true }),
    RouteSchema({ response: { 200: response } }),
  );
}

/**
 * Attaches the one-pass admission (key from the cache or the database, then the key's token
 * bucket) to every route marked `ApiCall`. Must run before the app initialises its routes.
 */
export function registerApiCallHook(app: NestFastifyApplication): void {
  const keys = app.get(ApiKeyGuard);
  const limits = app.get(RateLimitGuard);
  const admit: preHandlerAsyncHookHandler = async (
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    await keys.admit(request);
    await limits.admit(request, reply);
  };
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      if ((route.config as Record<string, unknown> | undefined)?.[API_CALL] !== true) return;
      const existing = route.preHandler;
      route.preHandler = existing ? [admit, ...[existing].flat()] : admit;
    });
}
