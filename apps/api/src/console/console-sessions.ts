import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { ConsoleSessionRepository, tokenHash } from '@verity/accounts';
import { CONSOLE_CONFIG, type ConsoleConfig } from '@verity/config';

/** A live console session. */
export interface ConsoleSession {
  userId: string;
  accountId: string;
  email: string;
  passwordSet: boolean;
  csrfToken: string;
}

// last_seen_at is refreshed at most this often, so browsing is not a write per request; idle
// expiry is therefore exact to within a minute.
const TOUCH_AFTER_MS = 60_000;

/**
 * Server-side sessions: the cookie holds a random id, the table only its SHA-256, so a
 * database read does not yield usable cookies. A session ends after
 * CONSOLE_SESSION_IDLE_MINUTES without requests or CONSOLE_SESSION_MAX_HOURS after sign-in.
 */
@Injectable()
export class ConsoleSessions {
  constructor(
    private readonly sessions: ConsoleSessionRepository,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
  ) {}

  /** Opens a session; returns the cookie value (shown to nobody else). */
  async open(userId: string): Promise<string> {
    const id = randomBytes(32).toString('base64url');
    await this.sessions.insert(tokenHash(id), userId, randomBytes(32).toString('base64url'));
    return id;
  }

  /** The live session for a cookie value, or null (unknown, idle too long, or too old). */
  async resolve(id: string): Promise<ConsoleSession | null> {
    const row = await this.sessions.findLive(
      tokenHash(id),
      this.config.CONSOLE_SESSION_IDLE_MINUTES,
      this.config.CONSOLE_SESSION_MAX_HOURS,
    );
    if (!row) return null;
    if (Date.now() - row.last_seen_at.getTime() > TOUCH_AFTER_MS)
      await this.sessions.touch(tokenHash(id));
    return {
      userId: row.user_id,
      accountId: row.account_id,
      email: row.email,
      passwordSet: row.password_hash !== null,
      csrfToken: row.csrf_token,
    };
  }

  async close(id: string): Promise<void> {
    await this.sessions.delete(tokenHash(id));
  }

  /** Every other session of the user (after a password change): `keep` stays signed in. */
  async closeOthers(userId: string, keep: string): Promise<void> {
    await this.sessions.deleteOthers(userId, tokenHash(keep));
  }

  /** "Sign out everywhere": every session of the user, this one included. */
  async closeAll(userId: string): Promise<void> {
    await this.sessions.deleteAll(userId);
  }
}
