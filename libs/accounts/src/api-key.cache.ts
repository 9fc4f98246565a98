import type { Principal } from './principal';

interface Entry {
  hash: Buffer;
  principal: Principal;
  expiresAt: number;
  /** From then on a hit asks for the key to be read again, before it expires. */
  refreshAt: number;
}

/** The share of the TTL after which a cached key is read again from the database. */
const REFRESH_AFTER = 0.8;

/**
 * Authenticated keys by lookup id, bounded in size and age. Revocations arrive through
 * `evict` (Postgres NOTIFY from any instance), so the TTL only bounds staleness if a
 * notification was ever missed while the listener reconnected (it clears the cache then).
 * A key in use is read again once REFRESH_AFTER of its TTL has passed (`due`), so under
 * traffic it never expires and its calls never all miss at once.
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();
  private evictions = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 100_000,
  ) {}

  get(lookupId: string, now = Date.now()): Entry | undefined {
    const entry = this.entries.get(lookupId);
    if (entry && entry.expiresAt <= now) {
      this.entries.delete(lookupId);
      return undefined;
    }
    return entry;
  }

  /** True when `entry` should be read again from the database (it still answers until it expires). */
  due(entry: Entry, now = Date.now()): boolean {
    return entry.refreshAt <= now;
  }

  /**
   * Counts evictions and clears: take it before reading a key from the database, and hand it
   * to `set`, so a key revoked while it was being read is not cached again.
   */
  version(): number {
    return this.evictions;
  }

  /** Caches the key unless an eviction or clear happened since `version` was read. */
  set(
    lookupId: string,
    hash: Buffer,
    principal: Principal,
    version: number,
    now = Date.now(),
  ): void {
    if (version !== this.evictions) return;
    if (!this.entries.has(lookupId) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(lookupId, {
      hash,
      principal,
      expiresAt: now + this.ttlMs,
      refreshAt: now + this.ttlMs * REFRESH_AFTER,
    });
  }

  evict(lookupId: string): void {
    this.evictions++;
    this.entries.delete(lookupId);
  }

  clear(): void {
    this.evictions++;
    this.entries.clear();
  }
}
