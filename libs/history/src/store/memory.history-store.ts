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

/** The values' order in a recent call's text. */
const RECENT_VALUES = ['email', 'phone', 'ip', 'subnet'] as const;

/** A recent call as one flat string: its scope, then each value ('' when absent). */
function recentCallText(scope: string, values: CallValues): string {
  return [scope, ...RECENT_VALUES.map((kind) => values[kind] ?? '')].join('\t');
}

/** The values of a recent call's text when it is of `scope`, else null. */
function recentCallValues(text: string, scope: string): CallValues | null {
  const [held, ...fields] = text.split('\t');
  if (held !== scope) return null;
  const values: CallValues = {};
  RECENT_VALUES.forEach((kind, i) => {
    if (fields[i] !== '') values[kind] = fields[i];
  });
  return values;
}

/** Bounds of the in-process store: every structure in it is capped (docs/history.md). */
export interface MemoryHistoryLimits {
  /** Values plus the members they hold; the least recently used values go first. */
  maxEntries: number;
  /** Recent calls held by request_id; the oldest go first. */
  maxRecentCalls: number;
}

/**
 * The embedded default: the history in this process, exact for a single instance. Every
 * structure is bounded: past `maxEntries` the least recently used fifth of the values is
 * forgotten, and a restart empties it all (report weights come back from PostgreSQL at boot,
 * HistoryUpkeep). Values are held per scope, so a call's lookups hash only the values' own keys.
 */
export class MemoryHistoryStore implements HistoryStore {
  readonly survivesRestart = false;
  private readonly scopes = new Map<string, Map<string, Entry>>();
  /**
   * Recent calls by request_id in two generations: a call is written to `recent`, which becomes
   * `previous` when it is recentTtlMs old (or half the bound), and `previous` is dropped then. A
   * call is so held at least recentTtlMs, and expiring walks nothing (a Map emptied from its
   * front walks its deleted slots on every read of the front). Each is one flat string of its
   * scope and values, tab-separated (recentCallText): minutes-old objects would be a tree each
   * for the garbage collector.
   */
  private recent = new Map<string, string>();
  private previous = new Map<string, string>();
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
    const held = this.scope(scope);
    const stored = values.map((value) => this.observeOne(held, at, value, now));
    this.remember(scope, call, now);
    if (this.entries > this.limits.maxEntries) this.evict();
    return Promise.resolve(stored);
  }

  recentCall(scope: string, requestId: string): Promise<CallValues | null> {
    this.age(this.clock());
    const held = this.recent.get(requestId) ?? this.previous.get(requestId);
    return Promise.resolve(held === undefined ? null : recentCallValues(held, scope));
  }

  report(scope: string, keys: readonly string[], change: ReportChange, at: number): Promise<void> {
    const now = this.clock();
    const held = this.scope(scope);
    const { halfLifeMs } = this.policy;
    for (const key of keys) {
      const entry = this.entry(held, key, now);
      const since = entry.reportedAt ?? at;
      entry.fraud = reweighed(entry.fraud, since, change.fraud, at, halfLifeMs);
      entry.legitimate = reweighed(entry.legitimate, since, change.legitimate, at, halfLifeMs);
      entry.reportedAt = at;
    }
    if (this.entries > this.limits.maxEntries) this.evict();
    return Promise.resolve();
  }

  restore(scope: string, states: readonly ReportState[], at: number): Promise<void> {
    const now = this.clock();
    const held = this.scope(scope);
    for (const state of states) {
      const entry = this.entry(held, state.key, now);
      if (entry.reportedAt !== null) continue;
      entry.fraud = state.fraud;
      entry.legitimate = state.legitimate;
      entry.reportedAt = at;
    }
    if (this.entries > this.limits.maxEntries) this.evict();
    return Promise.resolve();
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private scope(scope: string): Map<string, Entry> {
    let held = this.scopes.get(scope);
    if (!held) this.scopes.set(scope, (held = new Map<string, Entry>()));
    return held;
  }

  private observeOne(
    held: Map<string, Entry>,
    at: number,
    value: ObservedValue,
    now: number,
  ): StoredValue {
    const entry = this.entry(held, value.key, now);
    entry.first ??= at;
    entry.calls++;
    let linked: LinkedCounts | null = null;
    if (value.linked) {
      const members = (entry.members ??= new Map<string, number>());
      if (value.member !== null) {
        // A sighting moves the member last: the cap drops the least recently seen first.
        if (members.has(value.member)) members.delete(value.member);
        else this.entries++;
        members.set(value.member, at);
      }
      linked = this.count(members, at);
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

  /** The value's entry, touched now; a fresh one when absent or idle past the retention. */
  private entry(held: Map<string, Entry>, key: string, now: number): Entry {
    const entry = held.get(key);
    if (entry && now - entry.touched <= this.policy.valueTtlMs) {
      entry.touched = now;
      return entry;
    }
    if (entry) this.entries -= 1 + (entry.members?.size ?? 0);
    const fresh: Entry = {
      first: null,
      calls: 0,
      fraud: 0,
      legitimate: 0,
      reportedAt: null,
      members: null,
      touched: now,
    };
    held.set(key, fresh);
    this.entries++;
    return fresh;
  }

  /**
   * Forgets the least recently used fifth of the values: the cutoff is read from a sample of
   * their last use (512 of them), then one pass drops every value used no later. One pass per
   * fifth of the bound, so a call pays for it once in a long while, never per lookup.
   */
  private evict(): void {
    const total = [...this.scopes.values()].reduce((sum, held) => sum + held.size, 0);
    const step = Math.max(1, Math.floor(total / 512));
    const sample: number[] = [];
    let i = 0;
    for (const held of this.scopes.values())
      for (const entry of held.values()) if (i++ % step === 0) sample.push(entry.touched);
    sample.sort((a, b) => a - b);
    const cutoff = sample[Math.floor(sample.length / 5)];
    for (const [scope, held] of this.scopes) {
      for (const [key, entry] of held) {
        if (entry.touched > cutoff) continue;
        held.delete(key);
        this.entries -= 1 + (entry.members?.size ?? 0);
      }
      if (held.size === 0) this.scopes.delete(scope);
    }
  }

  private remember(
    scope: string,
    call: { requestId: string; values: CallValues },
    now: number,
  ): void {
    this.age(now);
    if (this.recent.size >= this.limits.maxRecentCalls / 2) this.rotate(now);
    this.recent.set(call.requestId, recentCallText(scope, call.values));
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
