import { randomUUID } from 'node:crypto';
import {
  CONCURRENCY_POLL_MS,
  type HostPermit,
  type MailHostLimiter,
  type MailHostPolicy,
} from './mail-host-limiter.port';

interface HostState {
  /** Slot token → when it lapses. */
  leases: Map<string, number>;
  /** Start times within the window, oldest first (at most maxPerWindow). */
  starts: number[];
  backoffUntil: number;
  cap: number;
  capUntil: number;
}

/** Hosts tracked before idle ones are swept (entries with no slot, start, backoff or cap). */
const SWEEP_ABOVE = 1_000;

/** The limiter of one process (the embedded default): the same rules as the Redis adapter. */
export class MemoryMailHostLimiter implements MailHostLimiter {
  private readonly hosts = new Map<string, HostState>();

  constructor(
    private readonly policy: MailHostPolicy,
    private readonly now: () => number = Date.now,
  ) {}

  acquire(host: string): Promise<HostPermit> {
    const now = this.now();
    const state = this.current(host, now);
    if (state.backoffUntil > now) {
      return Promise.resolve({
        granted: false,
        retryInMs: state.backoffUntil - now,
        cause: 'backoff',
      });
    }
    const cap = state.capUntil > now ? state.cap : this.policy.maxConcurrent;
    if (state.leases.size >= cap) {
      return Promise.resolve({
        granted: false,
        retryInMs: CONCURRENCY_POLL_MS,
        cause: 'concurrency',
      });
    }
    if (state.starts.length >= this.policy.maxPerWindow) {
      const retryInMs = Math.max(1, state.starts[0] + this.policy.windowMs - now);
      return Promise.resolve({ granted: false, retryInMs, cause: 'rate' });
    }
    const token = randomUUID();
    state.leases.set(token, now + this.policy.leaseMs);
    state.starts.push(now);
    return Promise.resolve({ granted: true, token });
  }

  release(host: string, token: string): Promise<void> {
    this.hosts.get(host)?.leases.delete(token);
    return Promise.resolve();
  }

  refused(host: string, backoffMs: number): Promise<void> {
    const now = this.now();
    const state = this.current(host, now);
    state.backoffUntil = Math.max(state.backoffUntil, now + backoffMs);
    state.cap = Math.max(1, state.leases.size - 1);
    state.capUntil = now + this.policy.learnedCapMs;
    return Promise.resolve();
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.hosts.clear();
    return Promise.resolve();
  }

  /** The host's state with lapsed slots and starts outside the window dropped. */
  private current(host: string, now: number): HostState {
    let state = this.hosts.get(host);
    if (state === undefined) {
      if (this.hosts.size >= SWEEP_ABOVE) this.sweep(now);
      state = { leases: new Map(), starts: [], backoffUntil: 0, cap: 0, capUntil: 0 };
      this.hosts.set(host, state);
    }
    for (const [token, until] of state.leases) if (until <= now) state.leases.delete(token);
    const since = now - this.policy.windowMs;
    let drop = 0;
    while (drop < state.starts.length && state.starts[drop] <= since) drop++;
    if (drop > 0) state.starts.splice(0, drop);
    return state;
  }

  private sweep(now: number): void {
    for (const host of [...this.hosts.keys()]) {
      const state = this.current(host, now);
      const idle =
        state.leases.size === 0 &&
        state.starts.length === 0 &&
        state.backoffUntil <= now &&
        state.capUntil <= now;
      if (idle) this.hosts.delete(host);
    }
  }
}
