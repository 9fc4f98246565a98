import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CONSOLE_KEY_ID } from '@verity/accounts';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';
import {
  assertCsrfToken,
  assertSameOrigin,
  isStateChanging,
  readCookie,
  SESSION_COOKIE,
} from './console-http';
import { ConsoleSessions, type ConsoleSession } from './console-sessions';

declare module 'fastify' {
  interface FastifyRequest {
    consoleSession?: ConsoleSession;
  }
}

/**
 * Console API routes: a live session cookie (never X-Api-Key), and for state-changing
 * requests the same Origin and the session's CSRF token. Sets the request's principal to the
 * session's account, so every tenant query is scoped exactly as on /v1; work started here is
 * counted on CONSOLE_KEY_ID.
 */
@Injectable()
export class ConsoleSessionGuard implements CanActivate {
  constructor(
    private readonly sessions: ConsoleSessions,
    @Inject(CORE_CONFIG) private readonly config: CoreConfig,
  ) {}

  async canActivate(ctx: ExecutionContext): Promise<boolean> {
    const request = ctx.switchToHttp().getRequest<FastifyRequest>();
    const changing = isStateChanging(request.method);
    if (changing) assertSameOrigin(request, this.config.CONSOLE_URL);
    const id = readCookie(request, SESSION_COOKIE);
    const session = id ? await this.sessions.resolve(id) : null;
    if (!session) throw new VerityError('unauthorized', 'sign in to the console to continue');
    if (changing) assertCsrfToken(request, session.csrfToken);
    request.consoleSession = session;
    request.principal = {
      accountId: session.accountId,
      keyId: CONSOLE_KEY_ID,
      keyName: 'console',
      mode: 'live',
    };
    return true;
  }
}
