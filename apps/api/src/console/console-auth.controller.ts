import { Body, Controller, HttpCode, Inject, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  AccountsService,
  ConsoleUsersService,
  PasswordHashPool,
  type ConsoleUser,
} from '@verity/accounts';
import { VerityError } from '@verity/common';
import {
  CORE_CONFIG,
  type CoreConfig,
  PHONE_CONFIG,
  type PhoneConfig,
  CONSOLE_CONFIG,
  type ConsoleConfig,
} from '@verity/config';
import type {
  ConsoleLinkRequest,
  ConsoleLoginRequest,
  ConsolePasswordRequest,
  ConsoleSessionView,
} from '@verity/contracts';
import { ZodBodyPipe } from '../http/zod-body.pipe';
import {
  assertSameOrigin,
  clearSessionCookie,
  readCookie,
  SESSION_COOKIE,
  setSessionCookie,
} from './console-http';
import { ConsoleRoute, CONSOLE_CONTROLLER_PATH } from './console-route';
import { ConsoleSessionGuard } from './console-session.guard';
import { ConsoleSessions, type ConsoleSession } from './console-sessions';
import { DeviceCookies } from './device-cookie';
import { LoginThrottle } from './login-throttle';
import { NoStore } from '../http/no-store';

const loginRequest = z.object({
  email: z.string().max(254),
  password: z.string().max(1024),
}) satisfies z.ZodType<ConsoleLoginRequest>;
const linkRequest = z.object({
  token: z.string().min(1).max(128),
}) satisfies z.ZodType<ConsoleLinkRequest>;
const passwordRequest = z.object({
  password: z.string().max(1024),
  current_password: z.string().max(1024).optional(),
}) satisfies z.ZodType<ConsolePasswordRequest>;

// The one message for any wrong credential: it never tells whether the email exists.
const WRONG_CREDENTIALS = 'email or password is incorrect';

/** Console sign-in: one-time links, passwords, sessions, sign-out. */
@ApiExcludeController()
@Controller(CONSOLE_CONTROLLER_PATH)
export class ConsoleAuthController {
  constructor(
    private readonly users: ConsoleUsersService,
    private readonly accounts: AccountsService,
    private readonly sessions: ConsoleSessions,
    private readonly throttle: LoginThrottle,
    private readonly devices: DeviceCookies,
    private readonly hashes: PasswordHashPool,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
    @Inject(CORE_CONFIG) private readonly core: CoreConfig,
    @Inject(PHONE_CONFIG) private readonly phone: PhoneConfig,
  ) {}

  @ConsoleRoute('login')
  @NoStore()
  @HttpCode(200)
  async login(
    @Body(new ZodBodyPipe(loginRequest)) body: z.infer<typeof loginRequest>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    assertSameOrigin(request, this.core.CONSOLE_URL);
    const device = await this.devices.trusted(request, body.email);
    // Room in the hash pool first: a flood beyond it is refused before any database read.
    const ticket = this.hashes.admit(device ? 'trusted' : 'untrusted');
    try {
      const user = await this.throttle.attempt(body.email, request.ip, device, () =>
        this.users.authenticate(body.email, body.password, ticket),
      );
      if (!user) throw new VerityError('unauthorized', WRONG_CREDENTIALS);
      return await this.signIn(user, request, reply);
    } finally {
      ticket.release();
    }
  }

  @ConsoleRoute('redeemLink')
  @NoStore()
  @HttpCode(200)
  async link(
    @Body(new ZodBodyPipe(linkRequest)) body: z.infer<typeof linkRequest>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    assertSameOrigin(request, this.core.CONSOLE_URL);
    const user = await this.users.redeemLink(body.token);
    if (!user)
      throw new VerityError(
        'unauthorized',
        'this sign-in link is not valid any more (used, expired or mistyped): ask for a new one',
      );
    return this.signIn(user, request, reply);
  }

  @ConsoleRoute('session')
  @NoStore()
  @UseGuards(ConsoleSessionGuard)
  session(@Req() request: FastifyRequest): Promise<ConsoleSessionView> {
    return this.view(request.consoleSession!);
  }

  @ConsoleRoute('setPassword')
  @NoStore()
  @HttpCode(200)
  @UseGuards(ConsoleSessionGuard)
  async setPassword(
    @Body(new ZodBodyPipe(passwordRequest)) body: z.infer<typeof passwordRequest>,
    @Req() request: FastifyRequest,
  ): Promise<ConsoleSessionView> {
    const session = request.consoleSession!;
    if (session.passwordSet) {
      // A stolen session guessing the password is held to this browser's device budget.
      const device = `session:${session.userId}`;
      const ticket = this.hashes.admit('trusted');
      const same = await this.throttle
        .attempt(session.email, request.ip, device, () =>
          this.users.authenticate(session.email, body.current_password ?? '', ticket),
        )
        .finally(() => ticket.release());
      if (!same) throw new VerityError('forbidden', 'current password is incorrect');
    }
    await this.users.setPassword(session.userId, body.password);
    // Whoever signed in with the old password (or a link) is signed out; this browser stays
    // (OWASP ASVS 4.0 V3.3.3: other sessions end after a password change).
    await this.sessions.closeOthers(session.userId, readCookie(request, SESSION_COOKIE)!);
    return this.view({ ...session, passwordSet: true });
  }

  @ConsoleRoute('logout')
  @HttpCode(204)
  @UseGuards(ConsoleSessionGuard)
  async logout(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.close(readCookie(request, SESSION_COOKIE)!);
    clearSessionCookie(request, reply);
  }

  @ConsoleRoute('logoutEverywhere')
  @HttpCode(204)
  @UseGuards(ConsoleSessionGuard)
  async logoutEverywhere(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.sessions.closeAll(request.consoleSession!.userId);
    clearSessionCookie(request, reply);
  }

  private async signIn(
    user: ConsoleUser,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<ConsoleSessionView> {
    const id = await this.sessions.open(user.id);
    setSessionCookie(request, reply, id, this.config.CONSOLE_SESSION_MAX_HOURS * 3600);
    await this.devices.issue(request, reply, user.email);
    const session = await this.sessions.resolve(id);
    return this.view(session!);
  }

  private async view(session: ConsoleSession): Promise<ConsoleSessionView> {
    return {
      email: session.email,
      account_id: session.accountId,
      account_name: await this.accounts.name(session.accountId),
      password_set: session.passwordSet,
      hlr_configured: this.phone.HLR_PROVIDER !== 'none',
      csrf_token: session.csrfToken,
    };
  }
}
