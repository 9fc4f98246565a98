import { Inject, Injectable } from '@nestjs/common';
import { DataSource, IsNull, type EntityManager } from 'typeorm';
import { VerityError } from '@verity/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { ApiKeyEntity } from '@verity/database';
import { ApiKeyCache } from './api-key.cache';
import { KeyActivityRecorder } from './key-activity.recorder';
import {
  apiKeyMatches,
  isWellFormedApiKey,
  keyHint,
  lookupIdOf,
  mintApiKey,
} from './api-key.codec';
import type { Principal } from './principal';

export const KEY_REVOCATION_CHANNEL = 'verity_api_keys';

/** A key as listed: never its value. */
export interface ApiKeyView {
  id: string;
  name: string;
  hint: string;
  created_at: string;
  rotated_at: string | null;
  /** May lag by up to KEY_LAST_USED_FLUSH_MS (a minute): see KeyActivityRecorder. */
  last_used_at: string | null;
}

/** A key with its value, returned once at creation or rotation. */
export interface IssuedApiKey extends ApiKeyView {
  key: string;
}

const MAX_KEYS_PER_ACCOUNT = 100;

/** Creates, lists, rotates, revokes and authenticates API keys. */
@Injectable()
export class ApiKeysService {
  private readonly cache: ApiKeyCache;
  private caching = false;

  constructor(
    private readonly db: DataSource,
    private readonly activity: KeyActivityRecorder,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.cache = new ApiKeyCache(config.KEY_CACHE_TTL_MS);
  }

  /**
   * The principal of a key already verified and cached, without any I/O; undefined when
   * `authenticate` would have to ask the database (or the key is malformed or wrong).
   */
  cachedPrincipal(value: string): Principal | undefined {
    if (!this.caching || !isWellFormedApiKey(value)) return undefined;
    const cached = this.cache.get(lookupIdOf(value));
    return cached && apiKeyMatches(value, cached.hash) ? cached.principal : undefined;
  }

  /** Resolves a presented key to its principal, or null when it is missing, malformed or dead. */
  async authenticate(value: string): Promise<Principal | null> {
    if (!isWellFormedApiKey(value)) return null;
    const lookupId = lookupIdOf(value);
    const cached = this.caching ? this.cache.get(lookupId) : undefined;
    if (cached) {
      if (!apiKeyMatches(value, cached.hash)) return null;
      this.activity.touch(cached.principal.keyId);
      return cached.principal;
    }
    const row = await this.db.getRepository(ApiKeyEntity).findOne({
      where: { lookupId, revokedAt: IsNull() },
    });
    if (!row || !apiKeyMatches(value, row.keyHash)) return null;
    const principal = { accountId: row.accountId, keyId: row.id, keyName: row.name };
    if (this.caching) this.cache.set(lookupId, row.keyHash, principal);
    this.activity.touch(row.id);
    return principal;
  }

  async list(accountId: string): Promise<ApiKeyView[]> {
    const rows = await this.db.getRepository(ApiKeyEntity).find({
      where: { accountId, revokedAt: IsNull() },
      order: { createdAt: 'ASC' },
    });
    return rows.map(toView);
  }

  async create(
    accountId: string,
    name: string,
    manager: EntityManager = this.db.manager,
  ): Promise<IssuedApiKey> {
    const count = await manager
      .getRepository(ApiKeyEntity)
      .count({ where: { accountId, revokedAt: IsNull() } });
    if (count >= MAX_KEYS_PER_ACCOUNT) {
      throw new VerityError(
        'unprocessable',
        `an account can have at most ${MAX_KEYS_PER_ACCOUNT} active keys`,
      );
    }
    const minted = mintApiKey();
    const row = await manager.getRepository(ApiKeyEntity).save(
      manager.getRepository(ApiKeyEntity).create({
        accountId,
        name,
        lookupId: minted.lookupId,
        keyHash: minted.hash,
        rotatedAt: null,
        revokedAt: null,
        lastUsedAt: null,
      }),
    );
    return { ...toView(row), key: minted.value };
  }

  /** Issues a new value for the key; the old value stops working on every instance at once. */
  async rotate(accountId: string, keyId: string): Promise<IssuedApiKey> {
    return this.db.transaction(async (manager) => {
      const row = await this.findLive(manager, accountId, keyId);
      const minted = mintApiKey();
      const oldLookupId = row.lookupId;
      row.lookupId = minted.lookupId;
      row.keyHash = minted.hash;
      row.rotatedAt = new Date();
      await manager.getRepository(ApiKeyEntity).save(row);
      // Raw SQL: pg_notify, sent on commit of this transaction (no TypeORM equivalent).
      await manager.query('SELECT pg_notify($1, $2)', [KEY_REVOCATION_CHANNEL, oldLookupId]);
      this.cache.evict(oldLookupId);
      return { ...toView(row), key: minted.value };
    });
  }

  /** Revokes the key for good. */
  async revoke(accountId: string, keyId: string): Promise<void> {
    await this.db.transaction(async (manager) => {
      const row = await this.findLive(manager, accountId, keyId);
      row.revokedAt = new Date();
      await manager.getRepository(ApiKeyEntity).save(row);
      await manager.query('SELECT pg_notify($1, $2)', [KEY_REVOCATION_CHANNEL, row.lookupId]);
      this.cache.evict(row.lookupId);
    });
  }

  /** Called by the revocation listener when another instance rotated or revoked a key. */
  evictCached(lookupId: string): void {
    this.cache.evict(lookupId);
  }

  /** Caching is on only while revocation notifications are being received. */
  setCaching(enabled: boolean): void {
    this.caching = enabled;
    this.cache.clear();
  }

  private async findLive(
    manager: EntityManager,
    accountId: string,
    keyId: string,
  ): Promise<ApiKeyEntity> {
    const row = await manager.getRepository(ApiKeyEntity).findOne({
      where: { id: keyId, accountId, revokedAt: IsNull() },
      lock: { mode: 'pessimistic_write' },
    });
    if (!row) throw new VerityError('not_found', `key ${keyId} not found`);
    return row;
  }
}

function toView(row: ApiKeyEntity): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    hint: keyHint(row.lookupId),
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt ? row.rotatedAt.toISOString() : null,
    last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}
