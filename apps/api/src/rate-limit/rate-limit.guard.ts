import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';
import { RATE_LIMIT_STORE } from './rate-limit.tokens';
import type { RateLimitDecision, RateLimitStore } from './rate-limit.store';

/**
 * Per-key token bucket. Runs after ApiKeyGuard. Sends `RateLimit-Limit`, `RateLimit-Remaining`
 * and `RateLimit-Reset` on every answer, and `Retry-After` with 429 rate_limited.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /** `RateLimit-Limit`, the same on every answer. */
  private readonly limit: string;

  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly store: RateLimitStore,
    @Inject(CORE_CONFIG) private readonly config: CoreConfig,
  ) {
    this.limit = String(config.RATE_LIMIT_BURST);
  }

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const http = ctx.switchToHttp();
    await this.admit(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
    return true;
  }

  /**
   * Takes a token for the request's key and sets the headers, or throws rate_limited. Answers
   * without a promise (undefined) when the store decides in this process, so the single calls'
   * hook goes on at once; a promise when the store is remote.
   */
  admit(request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
    const keyId = request.principal?.keyId;
    if (!keyId) throw new Error('RateLimitGuard must run after ApiKeyGuard');
    const now = this.store.takeNow(keyId);
    if (now !== null) return this.apply(now, reply);
    return this.store.take(keyId).then((decision) => this.apply(decision, reply));
  }

  private apply(decision: RateLimitDecision, reply: FastifyReply): undefined {
    const remaining = String(decision.remaining);
    const reset = String(decision.resetSeconds);
    if (!decision.allowed) {
      throw new VerityError(
        'rate_limited',
        `rate limit exceeded (${this.config.RATE_LIMIT_PER_SECOND}/s, burst ${this.config.RATE_LIMIT_BURST}); retry after ${decision.retryAfterSeconds}s`,
        {
          'RateLimit-Limit': this.limit,
          'RateLimit-Remaining': remaining,
          'RateLimit-Reset': reset,
          'Retry-After': String(decision.retryAfterSeconds),
        },
      );
    }
    void reply
      .header('RateLimit-Limit', this.limit)
      .header('RateLimit-Remaining', remaining)
      .header('RateLimit-Reset', reset);
    return undefined;
  }
}
