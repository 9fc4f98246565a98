import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiKeysService } from '@verity/accounts';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';
import type { RateLimitStore } from '../rate-limit/rate-limit.store';
import { AUTH_RATE_LIMIT_STORE } from '../rate-limit/rate-limit.tokens';
import { addressSubject } from '../http/client-address';
import { FailedAuthBudget } from './failed-auth.budget';

/**
 * Requires a valid X-Api-Key and attaches the caller's principal to the request. A key found
 * in the cache costs nothing. Any other request is checked against its client address's
 * failed-authentication budget (FailedAuthBudget): refused with 429 when the budget is spent,
 * so a flood of bad keys stops before it reaches the database, and charged only if its key
 * turns out missing, malformed, unknown, rotated or revoked. A valid key is never charged.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly budget: FailedAuthBudget;

  constructor(
    private readonly keys: ApiKeysService,
    @Inject(AUTH_RATE_LIMIT_STORE) limits: RateLimitStore,
    @Inject(CORE_CONFIG) config: CoreConfig,
  ) {
    this.budget = new FailedAuthBudget(
      limits,
      (decision) =>
        new VerityError(
          'rate_limited',
          `too many requests without a valid API key from this address (${config.AUTH_RATE_LIMIT_PER_SECOND}/s); retry after ${decision.retryAfterSeconds}s`,
          { 'Retry-After': String(decision.retryAfterSeconds) },
        ),
    );
  }

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
    // request.ip honours X-Forwarded-For only from TRUST_PROXY peers; IPv6 counts by /64.
    const address = addressSubject(request.ip);
    await this.budget.reserve(address);
    // Stays false when the lookup throws (a database outage is no failed authentication).
    let failed = false;
    try {
      if (value.length === 0) {
        failed = true;
        throw new VerityError('unauthorized', 'missing API key: send it in the X-Api-Key header');
      }
      const principal = await this.keys.authenticate(value);
      if (!principal) {
        failed = true;
        throw new VerityError('unauthorized', 'invalid API key');
      }
      request.principal = principal;
    } finally {
      await this.budget.release(address, failed);
    }
  }
}
