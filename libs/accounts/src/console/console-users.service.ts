import { Inject, Injectable } from '@nestjs/common';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource, type EntityManager } from 'typeorm';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig, CONSOLE_CONFIG, type ConsoleConfig } from '@verity/config';
import { AccountRepository } from '../account.repository';
import { ConsoleUserRepository, type ConsoleUserRow } from './console-user.repository';
import { DECOY_HASH, hashPassword, verifyPassword } from './password';
import { PasswordHashPool, type HashTicket } from './password.pool';

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

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const MIN_PASSWORD_LENGTH = 10;

export function tokenHash(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function toUser(row: ConsoleUserRow): ConsoleUser {
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
    private readonly users: ConsoleUserRepository,
    private readonly accounts: AccountRepository,
    private readonly hashes: PasswordHashPool,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
    @Inject(CORE_CONFIG) private readonly core: CoreConfig,
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
      if (!(await this.accounts.exists(accountId, m)))
        throw new VerityError('not_found', `account ${accountId} not found`);
      const user = await this.users.upsert(m, accountId, email);
      if (user.account_id !== accountId)
        throw new VerityError('unprocessable', 'this email already belongs to another account');
      return this.newLink(m, user.id);
    });
  }

  countForAccount(accountId: string): Promise<number> {
    return this.users.countForAccount(accountId);
  }

  /** A fresh one-time link for the user; the links issued before it stop working. */
  async issueLink(userId: string): Promise<SignInLink> {
    return this.db.transaction((m) => this.newLink(m, userId));
  }

  /** A new link for the user, in place of its unused ones. */
  private async newLink(manager: EntityManager, userId: string): Promise<SignInLink> {
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(Date.now() + this.config.CONSOLE_LINK_TTL_MINUTES * 60_000);
    await this.users.replaceUnusedLinks(manager, userId, tokenHash(token), expires);
    return {
      url: `${this.core.CONSOLE_URL.replace(/\/$/, '')}/sign-in#token=${token}`,
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
    const row = await this.users.redeemLink(tokenHash(token));
    return row ? toUser(row) : null;
  }

  /**
   * The user for these credentials, or null; the same work is done for an unknown email. The
   * password is checked with `ticket`, room the caller took in the hash pool (PasswordHashPool).
   */
  async authenticate(
    rawEmail: string,
    password: string,
    ticket: HashTicket,
  ): Promise<ConsoleUser | null> {
    const email = rawEmail.trim().toLowerCase();
    const row = await this.users.findByEmail(email);
    const ok = await verifyPassword(password, row?.password_hash ?? DECOY_HASH, (params) =>
      ticket.derive(params),
    );
    return ok && row?.password_hash ? toUser(row) : null;
  }

  async find(userId: string): Promise<ConsoleUser | null> {
    const row = await this.users.find(userId);
    return row ? toUser(row) : null;
  }

  async setPassword(userId: string, password: string): Promise<void> {
    if (password.length < MIN_PASSWORD_LENGTH)
      throw new VerityError(
        'validation_error',
        `password must be at least ${MIN_PASSWORD_LENGTH} characters`,
      );
    // From a signed-in session: the trusted lane. Links issued before stop working.
    const hash = await hashPassword(password, (params) => this.hashes.derive(params, 'trusted'));
    await this.db.transaction((m) => this.users.setPasswordHash(m, userId, hash));
  }
}
