import type { KeyMode } from '@verity/contracts';
import { Injectable } from '@nestjs/common';
import { DataSource, IsNull, QueryFailedError, type EntityManager } from 'typeorm';
import { ApiKeyEntity } from '@verity/database';

/** PostgreSQL NOTIFY channel on which a rotated or revoked key's old lookup id is sent. */
export const KEY_REVOCATION_CHANNEL = 'verity_api_keys';

/** The partial unique index that keeps a live key's name unique within its account and mode. */
const LIVE_NAME_INDEX = 'api_keys_live_name_idx';

/** What a new key row holds. */
export interface NewApiKey {
  accountId: string;
  name: string;
  mode: KeyMode;
  lookupId: string;
  keyHash: Buffer;
}

/**
 * The api_keys table through TypeORM; raw SQL only for the batched `last_used_at` write and
 * pg_notify, with their reasons. A key is live until it is revoked.
 */
@Injectable()
export class ApiKeyRepository {
  constructor(private readonly db: DataSource) {}

  private keys(manager: EntityManager = this.db.manager) {
    return manager.getRepository(ApiKeyEntity);
  }

  /** The live key of `lookupId`, or null. */
  findLiveByLookupId(lookupId: string): Promise<ApiKeyEntity | null> {
    return this.keys().findOne({ where: { lookupId, revokedAt: IsNull() } });
  }

  /** The account's live keys, oldest first. */
  listLive(accountId: string): Promise<ApiKeyEntity[]> {
    return this.keys().find({
      where: { accountId, revokedAt: IsNull() },
      order: { createdAt: 'ASC' },
    });
  }

  countLive(accountId: string, manager?: EntityManager): Promise<number> {
    return this.keys(manager).count({ where: { accountId, revokedAt: IsNull() } });
  }

  /** The names of the account's live keys of `mode`. */
  async liveNames(accountId: string, mode: KeyMode, manager?: EntityManager): Promise<Set<string>> {
    const rows = await this.keys(manager).find({
      select: { name: true },
      where: { accountId, mode, revokedAt: IsNull() },
    });
    return new Set(rows.map((row) => row.name));
  }

  /** The new row; null when a live key of the account and mode already has the name. */
  async insert(key: NewApiKey, manager?: EntityManager): Promise<ApiKeyEntity | null> {
    const repo = this.keys(manager);
    try {
      return await repo.save(
        repo.create({ ...key, rotatedAt: null, revokedAt: null, lastUsedAt: null }),
      );
    } catch (error) {
      if (isLiveNameTaken(error)) return null;
      throw error;
    }
  }

  /** The account's live key `keyId`, locked until `manager`'s transaction ends; null if none. */
  lockLive(manager: EntityManager, accountId: string, keyId: string): Promise<ApiKeyEntity | null> {
    return this.keys(manager).findOne({
      where: { id: keyId, accountId, revokedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
  }

  async save(manager: EntityManager, row: ApiKeyEntity): Promise<void> {
    await this.keys(manager).save(row);
  }

  /**
   * Tells every instance that `lookupId` no longer authenticates, on commit of `manager`'s
   * transaction. Raw SQL: pg_notify has no TypeORM equivalent.
   */
  async notifyRevoked(manager: EntityManager, lookupId: string): Promise<void> {
    await manager.query('SELECT pg_notify($1, $2)', [KEY_REVOCATION_CHANNEL, lookupId]);
  }

  /**
   * Moves `last_used_at` of each key forward to its time. Raw SQL: one UPDATE … FROM unnest for
   * the whole batch (the query builder would need one per key).
   */
  async markUsed(keyIds: string[], at: Date[]): Promise<void> {
    await this.db.query(
      `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, t.at)
         FROM unnest($1::uuid[], $2::timestamptz[]) AS t(id, at) WHERE k.id = t.id`,
      [keyIds, at],
    );
  }
}

function isLiveNameTaken(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driver = error.driverError as { code?: unknown; constraint?: unknown };
  return driver.code === '23505' && driver.constraint === LIVE_NAME_INDEX;
}
