import type { LinkedCounts } from '@verity/validation';
import {
  LINK_WINDOWS_MS,
  type CallValues,
  type HistoryStore,
  type HistoryStorePolicy,
  type ObservedValue,
  type ReportChange,
  type ReportState,
  type StoredValue,
} from './history-store.port';
import { reweighed } from './report-weight';

interface Entry {
  /** Null for a value reported but never seen in a call. */
  first: number | null;
  calls: number;
  fraud: number;
  legitimate: number;
  /** Null while the value has no report. */
  reportedAt: number | null;
  /** Member → when last seen; insertion order is sighting order (a sighting moves it last). */
  members: Map<string, number> | null;
  /** The process clock when last written: a value idle for the retention is forgotten. */
  touched: number;
}

/** Bounds of the in-process store: every structure in it is capped (docs/history.md). */
export interface MemoryHistoryLimits {
  /** Values plus the members they hold; the least recently used values go first. */
  maxEntries: number;
  /** Recent calls held by request_id; the oldest go first. */
  maxRecentCalls: number;
}

/**
 * The embedded default: the history in this process, exact for a single instance. Its maps are
 * bounded (least recently used values leave first) and a restart empties them; report weights
 * come back from PostgreSQL at boot (HistoryRestore).
 */
export class MemoryHistoryStore implements HistoryStore {
  private readonly values = new Map<string, Entry>();
  /**
   * Recent calls in two generations: a call is written to `current`, which becomes `previous`
   * when it is recentTtlMs old (or full), and `previous` is dropped then. A call is so held at
   * least recentTtlMs, and expiring costs no walk over the map (a Map emptied from its front
   * walks its deleted slots on every read of the front).
   */
  private recent = new Map<string, CallValues>();
  private previous = new Map<string, CallValues>();
  private recentSince: number;
  /** Values plus members held, against `limits.maxEntries`. */
  private entries = 0;

  constructor(
    private readonly policy: HistoryStorePolicy,
    private readonly limits: MemoryHistoryLimits,
    private readonly clock: () => number = Date.now,
  ) {
    this.recentSince = clock();
  }

  observe(
    scope: string,
    at: number,
    values: readonly ObservedValue[],
    call: { requestId: string; values: CallValues },
  ): Promise<StoredValue[]> {
    const now = this.clock();
    const stored = values.map((value) => this.observeOne(`${scope} ${value.key}`, at, value, now));
    this.remember(`${scope} ${call.requestId}`, call.values, now);
    return Promise.resolve(stored);
  }

  recentCall(scope: string, requestId: string): Promise<CallValues | null> {
    const id = `${scope} ${requestId}`;
    this.age(this.clock());
    return Promise.resolve(this.recent.get(id) ?? this.previous.get(id) ?? null);
  }

  report(scope: string, keys: readonly string[], change: ReportChange, at: number): Promise<void> {
    const now = this.clock();
    for (const key of keys) {
      const entry = this.entry(`${scope} ${key}`, now);
      const since = entry.reportedAt ?? at;
      const { halfLifeMs } = this.policy;
      entry.fraud = reweighed(entry.fraud, since, change.fraud, at, halfLifeMs);
      entry.legitimate = reweighed(entry.legitimate, since, change.legitimate, at, halfLifeMs);
      entry.reportedAt = at;
    }
    return Promise.resolve();
  }

  restore(scope: string, states: readonly ReportState[], at: number): Promise<void> {
    const now = this.clock();
    for (const state of states) {
      const entry = this.entry(`${scope} ${state.key}`, now);
      if (entry.reportedAt !== null) continue;
      entry.fraud = state.fraud;
      entry.legitimate = state.legitimate;
      entry.reportedAt = at;
    }
    return Promise.resolve();
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private observeOne(id: string, at: number, value: ObservedValue, now: number): StoredValue {
    const entry = this.entry(id, now);
    entry.first ??= at;
    entry.calls++;
    let linked: LinkedCounts | null = null;
    if (value.linked) {
      const members = (entry.members ??= new Map<string, number>());
      if (value.member !== null) {
        if (!members.delete(value.member)) this.entries++;
        members.set(value.member, at);
      }
      linked = this.count(members, at);
      this.evict();
    }
    return {
      first: entry.first,
      calls: entry.calls,
      fraud: entry.fraud,
      legitimate: entry.legitimate,
      reportedAt: entry.reportedAt ?? at,
      linked,
    };
  }

  /** Drops members past the longest window or over the cap, then counts each window in one pass. */
  private count(members: Map<string, number>, at: number): LinkedCounts {
    const oldest = at - this.policy.linkTtlMs;
    let over = members.size - this.policy.memberCap;
    const counts = { h1: 0, h24: 0, d30: 0 };
    for (const [member, seen] of members) {
      if (over > 0 || seen < oldest) {
        members.delete(member);
        this.entries--;
        over--;
        continue;
      }
      const age = at - seen;
      if (age <= LINK_WINDOWS_MS.h1) counts.h1++;
      if (age <= LINK_WINDOWS_MS.h24) counts.h24++;
      if (age <= LINK_WINDOWS_MS.d30) counts.d30++;
    }
    return counts;
  }

  /** The value's entry, made the most recently used; a fresh one when absent or forgotten. */
  private entry(id: string, now: number): Entry {
    const held = this.values.get(id);
    if (held) {
      this.values.delete(id);
      if (now - held.touched <= this.policy.valueTtlMs) {
        held.touched = now;
        this.values.set(id, held);
        return held;
      }
      this.entries -= 1 + (held.members?.size ?? 0);
    }
    const fresh: Entry = {
      first: null,
      calls: 0,
      fraud: 0,
      legitimate: 0,
      reportedAt: null,
      members: null,
      touched: now,
    };
    this.values.set(id, fresh);
    this.entries++;
    this.evict();
    return fresh;
  }

  /** Forgets least recently used values until the entries fit (never the one just used). */
  private evict(): void {
    if (this.entries <= this.limits.maxEntries) return;
    for (const [id, entry] of this.values) {
      if (this.entries <= this.limits.maxEntries || this.values.size <= 1) return;
      this.values.delete(id);
      this.entries -= 1 + (entry.members?.size ?? 0);
    }
  }

  private remember(id: string, values: CallValues, now: number): void {
    this.age(now);
    if (this.recent.size >= this.limits.maxRecentCalls / 2) this.rotate(now);
    this.recent.set(id, values);
  }

  /** Drops the older generation once the current one is recentTtlMs old. */
  private age(now: number): void {
    if (now - this.recentSince >= this.policy.recentTtlMs) this.rotate(now);
  }

  private rotate(now: number): void {
    this.previous = this.recent;
    this.recent = new Map();
    this.recentSince = now;
  }
}
