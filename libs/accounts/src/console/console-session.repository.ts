import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** A live console_sessions row with its user's columns. */
export interface ConsoleSessionRow {
  user_id: string;
  account_id: string;
  email: string;
  password_hash: string | null;
  csrf_token: string;
  last_seen_at: Date;
}

/** The console_sessions table, keyed by the SHA-256 of the cookie value (`idHash`), in raw SQL. */
@Injectable()
export class ConsoleSessionRepository {
  constructor(private readonly db: DataSource) {}

  async insert(idHash: Buffer, userId: string, csrfToken: string): Promise<void> {
    await this.db.query(
      'INSERT INTO console_sessions (id_hash, user_id, csrf_token) VALUES ($1, $2, $3)',
      [idHash, userId, csrfToken],
    );
  }

  /**
   * The session of `idHash` with its user, or null when it is unknown, idle for `idleMinutes`
   * or opened more than `maxHours` ago.
   */
  async findLive(
    idHash: Buffer,
    idleMinutes: number,
    maxHours: number,
  ): Promise<ConsoleSessionRow | null> {
    const rows = await this.db.query<ConsoleSessionRow[]>(
      `SELECT s.user_id, u.account_id, u.email, u.password_hash, s.csrf_token, s.last_seen_at
       FROM console_sessions s JOIN console_users u ON u.id = s.user_id
       WHERE s.id_hash = $1
         AND s.last_seen_at > now() - make_interval(mins => $2)
         AND s.created_at > now() - make_interval(hours => $3)`,
      [idHash, idleMinutes, maxHours],
    );
    return rows[0] ?? null;
  }

  async touch(idHash: Buffer): Promise<void> {
    await this.db.query('UPDATE console_sessions SET last_seen_at = now() WHERE id_hash = $1', [
      idHash,
    ]);
  }

  async delete(idHash: Buffer): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE id_hash = $1', [idHash]);
  }

  /** Every session of the user but `keepHash`'s. */
  async deleteOthers(userId: string, keepHash: Buffer): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE user_id = $1 AND id_hash <> $2', [
      userId,
      keepHash,
    ]);
  }

  async deleteAll(userId: string): Promise<void> {
    await this.db.query('DELETE FROM console_sessions WHERE user_id = $1', [userId]);
  }
}
