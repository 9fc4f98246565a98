import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { VerityError } from '@verity/common';
import { CORE_CONFIG, type CoreConfig } from '@verity/config';
import type { ApiKey, IssuedApiKey, KeyMode } from '@verity/contracts';
import type { ApiKeyEntity } from '@verity/database';
import { ApiKeyCache } from './api-key.cache';
import { ApiKeyRepository } from './api-key.repository';
import { KeyActivityRecorder } from './key-activity.recorder';
import {
  apiKeyMatches,
  isWellFormedApiKey,
  keyModeOf,
  keyHint,
  lookupIdOf,
  mintApiKey,
} from './api-key.codec';
import { assertInReach, inReach, type KeyReach } from './key-reach';
import type { Principal } from './principal';

const MAX_KEYS_PER_ACCOUNT = 100;

function principalOf(row: ApiKeyEntity): Principal {
  return { accountId: row.accountId, keyId: row.id, keyName: row.name, mode: row.mode };
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
    private readonly keys: ApiKeyRepository,
    private readonly activity: KeyActivityRecorder,
    @Inject(CORE_CONFIG) config: CoreConfig,
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
    if (cached.principal.mode !== keyModeOf(value)) return undefined;
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
      // The hash covers the prefix, so this cannot differ; checked so no live key ever answers as a test key.
      if (cached.principal.mode !== keyModeOf(value)) return null;
      if (this.cache.due(cached)) this.refresh(lookupId);
      this.activity.touch(cached.principal.keyId);
      return cached.principal;
    }
    const row = await this.liveKey(lookupId);
    if (!row || !apiKeyMatches(value, row.keyHash) || row.mode !== keyModeOf(value)) return null;
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
    const lookup = this.keys
      .findLiveByLookupId(lookupId)
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

  /** The account's active keys within `reach`, oldest first. */
  async list(accountId: string, reach: KeyReach = 'all'): Promise<ApiKey[]> {
    return (await this.keys.listLive(accountId))
      .filter((row) => inReach(reach, row.mode))
      .map(toView);
  }

  async create(
    accountId: string,
    name: string,
    manager: EntityManager = this.db.manager,
    mode: KeyMode = 'live',
    reach: KeyReach = 'all',
  ): Promise<IssuedApiKey> {
    assertInReach(reach, mode, 'create');
    const count = await this.keys.countLive(accountId, manager);
    if (count >= MAX_KEYS_PER_ACCOUNT) {
      throw new VerityError(
        'unprocessable',
        `an account can have at most ${MAX_KEYS_PER_ACCOUNT} active keys`,
      );
    }
    const minted = mintApiKey(mode);
    const row = await this.keys.insert(
      { accountId, name, mode, lookupId: minted.lookupId, keyHash: minted.hash },
      manager,
    );
    if (row === null) throw nameTaken(name, mode);
    return { ...toView(row), key: minted.value };
  }

  /**
   * `base` when no live key of the account and mode has that name, else the first free one of
   * `base (2)`, `base (3)`, …: the name of a key a command makes without being given one.
   */
  async freeName(accountId: string, mode: KeyMode, base: string): Promise<string> {
    const taken = await this.keys.liveNames(accountId, mode);
    if (!taken.has(base)) return base;
    let n = 2;
    while (taken.has(`${base} (${n})`)) n++;
    return `${base} (${n})`;
  }

  /** Issues a new value for the key; the old value stops working on every instance at once. */
  async rotate(accountId: string, keyId: string, reach: KeyReach = 'all'): Promise<IssuedApiKey> {
    return this.db.transaction(async (manager) => {
      const row = await this.findLive(manager, accountId, keyId);
      assertInReach(reach, row.mode, 'rotate');
      const minted = mintApiKey(row.mode);
      const oldLookupId = row.lookupId;
      row.lookupId = minted.lookupId;
      row.keyHash = minted.hash;
      row.rotatedAt = new Date();
      await this.keys.save(manager, row);
      await this.keys.notifyRevoked(manager, oldLookupId);
      this.forget(oldLookupId);
      return { ...toView(row), key: minted.value };
    });
  }

  /** Revokes the key for good. */
  async revoke(accountId: string, keyId: string, reach: KeyReach = 'all'): Promise<void> {
    await this.db.transaction(async (manager) => {
      const row = await this.findLive(manager, accountId, keyId);
      assertInReach(reach, row.mode, 'delete');
      row.revokedAt = new Date();
      await this.keys.save(manager, row);
      await this.keys.notifyRevoked(manager, row.lookupId);
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
    const row = await this.keys.lockLive(manager, accountId, keyId);
    if (!row) throw new VerityError('not_found', `key ${keyId} not found`);
    return row;
  }
}

/** 422: names tell an account's live keys apart, so a name is taken while a live key has it. */
function nameTaken(name: string, mode: KeyMode): VerityError {
  return new VerityError(
    'unprocessable',
    `a ${mode} key named ${JSON.stringify(name)} already exists: choose another name, or revoke that key first`,
  );
}

function toView(row: ApiKeyEntity): ApiKey {
  return {
    id: row.id,
    name: row.name,
    mode: row.mode,
    hint: keyHint(row.lookupId, row.mode),
    created_at: row.createdAt.toISOString(),
    rotated_at: row.rotatedAt ? row.rotatedAt.toISOString() : null,
    last_used_at: row.lastUsedAt ? row.lastUsedAt.toISOString() : null,
  };
}
