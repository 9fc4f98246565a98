import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** The authenticated caller; only valid on routes behind ApiKeyGuard. */
export const CurrentPrincipal = createParamDecorator(
  (_: unknown, ctx: ExecutionContext): Principal => {
    const principal = ctx.switchToHttp().getRequest<FastifyRequest>().principal;
    if (!principal) throw new Error('CurrentPrincipal used on a route without ApiKeyGuard');
    return principal;
  },
);
