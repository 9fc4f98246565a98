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

function principalOf(row: ApiKeyEntity): Principal {
  return { accountId: row.accountId, keyId: row.id, keyName: row.name };
}

/** Creates, lists, rotates, revokes and authenticates API keys. */
@Injectable()
export class ApiKeysService {
  private readonly cache: ApiKeyCache;
  private caching = false;
  /** Key reads from the database in flight, by lookup id (see liveKey). */
  private readonly lookups = new Map<string, Promise<ApiKeyEntity | null>>();

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
    const lookupId = lookupIdOf(value);
    const cached = this.cache.get(lookupId);
    if (!cached || !apiKeyMatches(value, cached.hash)) return undefined;
    if (this.cache.due(cached)) this.refresh(lookupId);
    return cached.principal;
  }

  /** Resolves a presented key to its principal, or null when it is missing, malformed or dead. */
  async authenticate(value: string): Promise<Principal | null> {
    if (!isWellFormedApiKey(value)) return null;
    const lookupId = lookupIdOf(value);
    const cached = this.caching ? this.cache.get(lookupId) : undefined;
    if (cached) {
      if (!apiKeyMatches(value, cached.hash)) return null;
      if (this.cache.due(cached)) this.refresh(lookupId);
      this.activity.touch(cached.principal.keyId);
      return cached.principal;
    }
    const row = await this.liveKey(lookupId);
    if (!row || !apiKeyMatches(value, row.keyHash)) return null;
    this.activity.touch(row.id);
    return principalOf(row);
  }

  /**
   * The live key row of `lookupId`, cached when caching is on. One query per lookup id at a
   * time: the calls that miss the cache together (a key's first calls on this instance, or
   * after its entry expired) share it instead of sending one each.
   */
  private liveKey(lookupId: string): Promise<ApiKeyEntity | null> {
    const pending = this.lookups.get(lookupId);
    if (pending) return pending;
    const version = this.cache.version();
    const lookup = this.db
      .getRepository(ApiKeyEntity)
      .findOne({ where: { lookupId, revokedAt: IsNull() } })
      .then((row) => {
        if (row && this.caching) this.cache.set(lookupId, row.keyHash, principalOf(row), version);
        return row;
      })
      .finally(() => {
        if (this.lookups.get(lookupId) === lookup) this.lookups.delete(lookupId);
      });
    this.lookups.set(lookupId, lookup);
    return lookup;
  }

  /**
   * Reads a cached key again in the background, before its entry expires: the entry is renewed
   * when the key is still live with the same hash, dropped otherwise (revoked while a
   * notification was missed). A failed read leaves the entry to expire.
   */
  private refresh(lookupId: string): void {
    if (this.lookups.has(lookupId)) return;
    const known = this.cache.get(lookupId);
    this.liveKey(lookupId).then(
      (row) => {
        if (!row || (known && !row.keyHash.equals(known.hash))) this.cache.evict(lookupId);
      },
      () => undefined,
    );
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
      this.forget(oldLookupId);
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
      this.forget(row.lookupId);
    });
  }

  /** Called by the revocation listener when another instance rotated or revoked a key. */
  evictCached(lookupId: string): void {
    this.forget(lookupId);
  }

  /** Caching is on only while revocation notifications are being received. */
  setCaching(enabled: boolean): void {
    this.caching = enabled;
    this.cache.clear();
    this.lookups.clear();
  }

  /**
   * Drops a rotated or revoked key: its cache entry, and any read of it in flight, so a call
   * arriving now reads the key afresh instead of sharing a read that began before the change.
   */
  private forget(lookupId: string): void {
    this.cache.evict(lookupId);
    this.lookups.delete(lookupId);
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
