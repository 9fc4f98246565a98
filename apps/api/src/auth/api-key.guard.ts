import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '@verity/accounts';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import type { RateLimitStore } from '../rate-limit/rate-limit.store';
import { AUTH_RATE_LIMIT_STORE } from '../rate-limit/rate-limit.tokens';

/**
 * Requires a valid X-Api-Key and attaches the caller's principal to the request. A key found
 * in the cache costs nothing; every other request (missing, malformed, unknown or not yet
 * cached key) first takes a token from its client address's bucket, so a flood of bad keys
 * is answered 429 before it reaches the database.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeysService,
    @Inject(AUTH_RATE_LIMIT_STORE) private readonly limits: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    await this.admit(ctx.switchToHttp().getRequest<FastifyRequest>());
    return true;
  }

  /** Sets `request.principal` or throws; no promise when the key is in the cache. */
  admit(request: FastifyRequest): Promise<void> | undefined {
    const header = request.headers['x-api-key'];
    const value = typeof header === 'string' ? header.trim() : '';
    const cached = this.keys.cachedPrincipal(value);
    if (cached) {
      request.principal = cached;
      return undefined;
    }
    return this.authenticate(request, value);
  }

  private async authenticate(request: FastifyRequest, value: string): Promise<void> {
    // request.ip honours X-Forwarded-For only from TRUST_PROXY peers.
    const decision = await this.limits.take(request.ip);
    if (!decision.allowed) {
      throw new VerityError(
        'rate_limited',
        `too many requests without a valid API key from this address (${this.config.AUTH_RATE_LIMIT_PER_SECOND}/s); retry after ${decision.retryAfterSeconds}s`,
        { 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    if (value.length === 0) {
      throw new VerityError('unauthorized', 'missing API key: send it in the X-Api-Key header');
    }
    const principal = await this.keys.authenticate(value);
    if (!principal) throw new VerityError('unauthorized', 'invalid API key');
    request.principal = principal;
  }
}
