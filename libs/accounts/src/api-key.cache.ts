import type { Principal } from './principal';

interface Entry {
  hash: Buffer;
  principal: Principal;
  expiresAt: number;
}

/**
 * Authenticated keys by lookup id, bounded in size and age. Revocations arrive through
 * `evict` (Postgres NOTIFY from any instance), so the TTL only bounds staleness if a
 * notification was ever missed while the listener reconnected (it clears the cache then).
 */
export class ApiKeyCache {
  private readonly entries = new Map<string, Entry>();

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

  set(lookupId: string, hash: Buffer, principal: Principal, now = Date.now()): void {
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(lookupId, { hash, principal, expiresAt: now + this.ttlMs });
  }

  evict(lookupId: string): void {
    this.entries.delete(lookupId);
  }

  clear(): void {
    this.entries.clear();
  }
}
