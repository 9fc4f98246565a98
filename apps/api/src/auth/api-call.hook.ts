import { applyDecorators, type Type } from '@nestjs/common';
import { HEADERS_METADATA } from '@nestjs/common/constants';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { RouteConfig, RouteSchema } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, preHandlerHookHandler } from 'fastify';
import { z } from 'zod';
import type { Principal } from '@verity/accounts';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard';
import { ApiKeyGuard } from './api-key.guard';

const API_CALL = 'verityApiCall';

/** A Fastify hook's callback: no argument to go on, an error to answer with it. */
type HookDone = (error?: Error) => void;

/**
 * What a single-call route's method receives: the caller (admitted by the preHandler), the
 * body validated with the route's zod schema (undefined on routes without a body), and the
 * request (id, query).
 */
export type ApiCallMethod<B = never> = (
  principal: Principal,
  body: B,
  request: FastifyRequest,
) => Promise<object>;

/** The route config value of an `ApiCall` route: which controller method answers it. */
interface ApiCallRoute {
  controller: Type;
  method: string | symbol;
  body: ZodBodyPipe<z.ZodType> | null;
}

export interface ApiCallOptions {
  /** The request body schema (400 validation_error on a mismatch, as ZodBodyPipe). */
  body?: z.ZodType;
  /** The 200 answer's schema, the one the OpenAPI document shows. */
  ok: z.ZodType;
}

/**
 * Marks a single-call route (the hot path). The route stays a Nest controller method (module,
 * DI, OpenAPI document), but Fastify answers it without Nest's router: its key check and rate
 * limit run as one Fastify preHandler, then the method is called directly with the caller and
 * the body validated by `body` (ZodBodyPipe), no execution context, pipe or parameter
 * factories per request. Errors thrown anywhere reach Fastify's error handler, which Nest
 * routes through AllErrorsFilter like any other, so the error shapes and headers are the same.
 * The 200 answer is serialised by fast-json-stringify from `ok` instead of JSON.stringify.
 * Headers set with Nest's `@Header` (e.g. `@NoStore()`) are sent as on any other route.
 */
export function ApiCall(options: ApiCallOptions): MethodDecorator {
  const response = z.toJSONSchema(options.ok, { target: 'draft-7', io: 'output' });
  const body = options.body ? new ZodBodyPipe(options.body) : null;
  return (target, method, descriptor) => {
    const route: ApiCallRoute = { controller: target.constructor as Type, method, body };
    applyDecorators(
      RouteConfig({ [API_CALL]: route }),
      RouteSchema({ response: { 200: response } }),
    )(target, method, descriptor);
  };
}

/**
 * Gives every route marked `ApiCall` its one-pass admission (key from the cache or the
 * database, then the key's token bucket) and its direct handler. Must run before the app
 * initialises its routes.
 */
export function registerApiCallHook(app: NestFastifyApplication): void {
  const keys = app.get(ApiKeyGuard);
  const limits = app.get(RateLimitGuard);
  // Callback style: a key found in the cache and a bucket kept in this process are admitted
  // without a promise of their own.
  const limit = (request: FastifyRequest, reply: FastifyReply, done: HookDone): void => {
    let pending: Promise<void> | undefined;
    try {
      pending = limits.admit(request, reply);
    } catch (error) {
      return done(error as Error);
    }
    if (pending) pending.then(() => done(), done);
    else done();
  };
  const admit: preHandlerHookHandler = (request, reply, done) => {
    const pending = keys.admit(request);
    if (pending) pending.then(() => limit(request, reply, done), done);
    else limit(request, reply, done);
  };
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      const call = (route.config as Record<string, ApiCallRoute | undefined> | undefined)?.[
        API_CALL
      ];
      if (!call) return;
      const controller: Record<string | symbol, ApiCallMethod<unknown>> = app.get(call.controller);
      const method = controller[call.method].bind(controller);
      const body = call.body;
      const headers =
        (Reflect.getMetadata(HEADERS_METADATA, controller[call.method]) as
          { name: string; value: string }[] | undefined) ?? [];
      const existing = route.preHandler;
      route.preHandler = existing ? [admit, ...[existing].flat()] : admit;
      route.handler = async function apiCall(
        request: FastifyRequest,
        reply: FastifyReply,
      ): Promise<object> {
        const principal = request.principal;
        if (!principal) throw new Error('ApiCall route reached without a principal');
        for (const { name, value } of headers) void reply.header(name, value);
        return method(principal, body ? body.transform(request.body) : undefined, request);
      };
    });
}
