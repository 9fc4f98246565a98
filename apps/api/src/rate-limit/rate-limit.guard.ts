import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { RATE_LIMIT_STORE } from './rate-limit.tokens';
import type { RateLimitStore } from './rate-limit.store';

/**
 * Per-key token bucket. Runs after ApiKeyGuard. Sends `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset` on every answer, and `Retry-After` with 429 rate_limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const http = ctx.switchToHttp();
    await this.admit(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
    return true;
  }

  /** Takes a token for the request's key and sets the headers, or throws rate_limited. */
  async admit(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const keyId = request.principal?.keyId;
    if (!keyId) throw new Error('RateLimitGuard must run after ApiKeyGuard');
    const decision = await this.store.take(keyId);
    const headers = {
      'RateLimit-Limit': String(this.config.RATE_LIMIT_BURST),
      'RateLimit-Remaining': String(decision.remaining),
      'RateLimit-Reset': String(decision.resetSeconds),
    };
    if (!decision.allowed) {
      throw new VerityError(
        'rate_limited',
        `rate limit exceeded (${this.config.RATE_LIMIT_PER_SECOND}/s, burst ${this.config.RATE_LIMIT_BURST}); retry after ${decision.retryAfterSeconds}s`,
        { ...headers, 'Retry-After': String(decision.retryAfterSeconds) },
      );
    }
    void reply.headers(headers);
  }
}
