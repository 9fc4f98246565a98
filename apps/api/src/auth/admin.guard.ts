import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Operator routes: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time.
 * With ADMIN_TOKEN unset the admin API does not exist (404), so it cannot be probed.
 */
@Injectable()
export class AdminGuard implements CanActivate {
  private readonly expected: Buffer | null;

  constructor(@Inject(CORE_CONFIG) config: CoreConfig) {
    this.expected = config.ADMIN_TOKEN ? digest(config.ADMIN_TOKEN) : null;
  }

  canActivate(ctx: ExecutionContext): boolean {
    if (!this.expected) throw new VerityError('not_found', 'no such route');
    const header = ctx.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const match = /^Bearer (.+)$/.exec(header);
    // Hashing both sides gives equal lengths, so timingSafeEqual never short-circuits on length.
    if (!match || !timingSafeEqual(digest(match[1]), this.expected)) {
      throw new VerityError('unauthorized', 'missing or invalid admin token');
    }
    return true;
  }
}
