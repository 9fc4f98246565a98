import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '@verity/accounts';
import { VerityError } from '@verity/common';

/** Requires a valid X-Api-Key and attaches the caller's principal to the request. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(private readonly keys: ApiKeysService) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    const header = request.headers['x-api-key'];
    if (typeof header !== 'string' || header.length === 0) {
      throw new VerityError('unauthorized', 'missing API key: send it in the X-Api-Key header');
    }
    const principal = await this.keys.authenticate(header.trim());
    if (!principal) throw new VerityError('unauthorized', 'invalid API key');
    request.principal = principal;
    return true;
  }
}
