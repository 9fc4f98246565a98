import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';

/** A console_users row as the queries read it. */
export interface ConsoleUserRow {
  id: string;
  account_id: string;
  email: string;
  password_hash: string | null;
}

/** The console_users table and its one-time sign-in links (console_sign_in_links), in raw SQL. */
@Injectable()
export class ConsoleUserRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Inserts the user of `email` for the account, or finds the existing one (whose account may
   * be another).
   */
  async upsert(manager: EntityManager, accountId: string, email: string): Promise<ConsoleUserRow> {
    const rows = await manager.query<ConsoleUserRow[]>(
      `INSERT INTO console_users (account_id, email) VALUES ($1, $2)
         ON CONFLICT (email) DO UPDATE SET email = EXCLUDED.email
         RETURNING id, account_id, email, password_hash`,
      [accountId, email],
    );
    return rows[0];
  }

  async countForAccount(accountId: string): Promise<number> {
    const [row] = await this.db.query<{ n: number }[]>(
      'SELECT count(*)::int AS n FROM console_users WHERE account_id = $1',
      [accountId],
    );
    return row.n;
  }

  /**
   * Retires the user's unused links and stores a new one, in `manager`'s transaction. The
   * user's row is locked first, so two links issued at once still leave exactly one that works.
   */
  async replaceUnusedLinks(
    manager: EntityManager,
    userId: string,
    tokenHash: Buffer,
    expiresAt: Date,
  ): Promise<void> {
    await manager.query('SELECT 1 FROM console_users WHERE id = $1 FOR UPDATE', [userId]);
    await manager.query(
      'DELETE FROM console_sign_in_links WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
    await manager.query(
      'INSERT INTO console_sign_in_links (token_hash, user_id, expires_at) VALUES ($1, $2, $3)',
      [tokenHash, userId, expiresAt],
    );
  }

  /** Spends the link of `tokenHash`: its user, or null if unknown, used or expired. */
  async redeemLink(tokenHash: Buffer): Promise<ConsoleUserRow | null> {
    const rows = await this.db.query<[ConsoleUserRow[], number]>(
      `UPDATE console_sign_in_links l SET used_at = now()
       FROM console_users u
       WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > now() AND u.id = l.user_id
       RETURNING u.id, u.account_id, u.email, u.password_hash`,
      [tokenHash],
    );
    return rows[0][0] ?? null;
  }

  async findByEmail(email: string): Promise<ConsoleUserRow | null> {
    const rows = await this.db.query<ConsoleUserRow[]>(
      'SELECT id, account_id, email, password_hash FROM console_users WHERE email = $1',
      [email],
    );
    return rows[0] ?? null;
  }

  async find(userId: string): Promise<ConsoleUserRow | null> {
    const rows = await this.db.query<ConsoleUserRow[]>(
      'SELECT id, account_id, email, password_hash FROM console_users WHERE id = $1',
      [userId],
    );
    return rows[0] ?? null;
  }

  /**
   * Sets the user's password and retires its unused sign-in links, in `manager`'s transaction:
   * a link issued before a password change must not sign in after it.
   */
  async setPasswordHash(
    manager: EntityManager,
    userId: string,
    passwordHash: string,
  ): Promise<void> {
    await manager.query('UPDATE console_users SET password_hash = $2 WHERE id = $1', [
      userId,
      passwordHash,
    ]);
    await manager.query(
      'DELETE FROM console_sign_in_links WHERE user_id = $1 AND used_at IS NULL',
      [userId],
    );
  }
}
