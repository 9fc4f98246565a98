import type { SpentUsage } from './lease.sql';

/** This instance's lease of one account. */
export interface LocalLease {
  leaseId: string | null;
  /** Credits of the lease not taken by any call. */
  remaining: number;
  /** Credits taken by calls still running. */
  inFlight: number;
  /** Spent since the last settle, per key and operation. */
  usage: Map<string, SpentUsage>;
  spentSinceTick: number;
  /** Credits per second on this instance (exponential average). */
  rate: number;
  idleTicks: number;
  refill: Promise<void> | null;
  /** Until then calls are debited directly (reservation refused, or another instance asked). */
  directUntil: number;
  /** Another instance asked: give everything back at once, then tell it. */
  draining: boolean;
  lastSettled: number;
  /** Reservations and settles of one lease never overlap (a refill must not land in a lease being closed). */
  chain: Promise<void>;
}

/** A lease of this instance before its first reservation. */
export function newLease(): LocalLease {
  return {
    leaseId: null,
    remaining: 0,
    inFlight: 0,
    usage: new Map(),
    spentSinceTick: 0,
    rate: 0,
    idleTicks: 0,
    refill: null,
    directUntil: 0,
    draining: false,
    lastSettled: 0,
    chain: Promise.resolve(),
  };
}

function usageId(keyId: string, operation: string): string {
  return `${keyId} ${operation}`;
}

/** Adds `u` to the usage per key and operation (`u` itself becomes the entry when it is new). */
export function addUsage(into: Map<string, SpentUsage>, u: SpentUsage): void {
  const id = usageId(u.keyId, u.operation);
  const existing = into.get(id);
  if (existing) {
    existing.calls += u.calls;
    existing.credits += u.credits;
  } else into.set(id, u);
}

/** Counts one call of `credits`; allocates only for a key and operation not seen yet. */
export function addCall(
  into: Map<string, SpentUsage>,
  keyId: string,
  operation: string,
  credits: number,
): void {
  const id = usageId(keyId, operation);
  const existing = into.get(id);
  if (existing) {
    existing.calls += 1;
    existing.credits += credits;
  } else into.set(id, { keyId, operation, calls: 1, credits });
}
