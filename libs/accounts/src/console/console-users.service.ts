import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { DECOY_HASH, hashPassword, verifyPassword } from './password';

/** A console user as the console sees it. */
export interface ConsoleUser {
  id: string;
  accountId: string;
  email: string;
  passwordSet: boolean;
}

/** A one-time sign-in link: the token is only in the URL (after `#`), its hash in the database. */
export interface SignInLink {
  url: string;
  expires_at: string;
}

interface UserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string | null;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function toUser(row: UserRow): ConsoleUser {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    passwordSet: row.password_hash !== null,
  };
}

/** Normalises an email address or throws validation_error. */
export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase();
  if (!EMAIL.test(email) || email.length > 254)
    throw new VerityError('validation_error', 'email must be an email address');
  return email;
}

/**
 * People who sign in to the console. Each belongs to one account; the first sign-in is by a
 * one-time link (single use, CONSOLE_LINK_TTL_MINUTES), after which the user sets a password.
 */
@Injectable()
export class ConsoleUsersService {
  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * Creates the account's user (or finds it again) and issues a fresh one-time link, in one
   * transaction: `manager`'s when given (the account's own creation), else a new one.
   */
  async createWithLink(
    accountId: string,
    rawEmail: string,
    manager?: EntityManager,
  ): Promise<SignInLink> {
    const email = normaliseEmail(rawEmail);
    return this.inTransaction(manager, async (m) => {
      const account = await m.query<unknown[]>('SELECT 1 FROM accounts WHERE id = $1', [accountId]);
      if (account.length === 0)
        throw new VerityError('not_found', `account ${accountId} not found`);
      const rows = await m.query<UserRow[]>(
        `INSERT INTO console_users (account_id, email) VALUES ($1, $2)
         ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
         RETURNING id, account_id, email, password_hash`,
        [accountId, email],
      );
      if (rows[0].account_id !== accountId)
        throw new VerityError('unprocessable', 'this email already belongs to another account');
      return this.newLink(m, rows[0].id);
    });
  }

  async countForAccount(accountId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM console_users WHERE account_id = $1',
      [accountId],
    );
    return row.n;
  }

  /** A fresh one-time link for the user; the links issued before it stop working. */
  async issueLink(userId: string): Promise<SignInLink> {
    return this.db.transaction((m) => this.newLink(m, userId));
  }

  /**
   * Retires the user's unused links and stores a new one. The user's row is locked first, so
   * two links issued at once still leave exactly one that works.
   */
  private async newLink(manager: EntityManager, userId: string): Promise<SignInLink> {
    await manager.query('SELECT 1 FROM console_users WHERE id = $1 FOR UPDATE', [userId]);
    await manager.query(
      'DELETE FROM console_sign_in_links WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(Date.now() + this.config.CONSOLE_LINK_TTL_MINUTES * 60_000);
    await manager.query(
      'INSERT INTO console_sign_in_links (token_hash, user_id, expires_at) VALUES ($1, $2, $3)',
      [tokenHash(token), userId, expires],
    );
    return {
      url: `${this.config.CONSOLE_URL.replace(/\/$/, '')}/sign-in#token=${token}`,
      expires_at: expires.toISOString(),
    };
  }

  private inTransaction<T>(
    manager: EntityManager | undefined,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    return manager ? work(manager) : this.db.transaction(work);
  }

  /** Spends a link: the user it was for, or null if unknown, used or expired. */
  async redeemLink(token: string): Promise<ConsoleUser | null> {
    const rows = await this.db.query<[UserRow[], number]>(
      `UPDATE console_sign_in_links l SET used_at = now()
       FROM console_users u
       WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND u.id = l.user_id
       RETURNING u.id, u.account_id, u.email, u.password_hash`,
      [tokenHash(token)],
    );
    const users = rows[0];
    return users.length > 0 ? toUser(users[0]) : null;
  }

  /** The user for these credentials, or null; the same work is done for an unknown email. */
  async authenticate(rawEmail: string, password: string): Promise<ConsoleUser | null> {
    const email = rawEmail.trim().toLowerCase();
    const rows = await this.db.query<UserRow[]>(
      'SELECT id, account_id, email, password_hash FROM console_users WHERE email = $1',
      [email],
    );
    const row = rows[0];
    const ok = await verifyPassword(password, row?.password_hash ?? DECOY_HASH);
    return ok && row?.password_hash ? toUser(row) : null;
  }

  async find(userId: string): Promise<ConsoleUser | null> {
    const rows = await this.db.query<UserRow[]>(
      'SELECT id, account_id, email, password_hash FROM console_users WHERE id = $1',
      [userId],
    );
    return rows.length > 0 ? toUser(rows[0]) : null;
  }

  async setPassword(userId: string, password: string): Promise<void> {
    if (password.length < MIN_PASSWORD_LENGTH)
      throw new VerityError(
        'validation_error',
        `password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      );
    await this.db.query('UPDATE console_users SET password_hash = $2 WHERE id = $1', [
      userId,
      await hashPassword(password),
    ]);
  }
}
