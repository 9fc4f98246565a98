import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { counted } from '@verity/common';
import { CREDITS_CONFIG, type CreditsConfig } from '@verity/config';
import { CreditsService } from '../credits.service';
import { blockSize, nextRate } from './lease-size';
import { LeaseRepository } from './lease.repository';
import { newLease, UsageTally, type LocalLease } from './local-lease';

/** PostgreSQL NOTIFY channel of the leases: "give back your credits" and "given back". */
export const CREDIT_LEASE_CHANNEL = 'verity_credit_leases';

/** A notification on CREDIT_LEASE_CHANNEL. */
export interface LeaseNotice {
  kind: 'release' | 'released';
  accountId: string;
  instance: string;
}

/** Credits taken from a lease for one call, until the call succeeds (spend) or fails (give back). */
export interface LeaseHold {
  accountId: string;
  cost: number;
}

/** After a refused reservation, calls of the account are debited directly for this many settle intervals. */
const DIRECT_TICKS = 5;

/**
 * Credit leases (docs/credits.md): this instance reserves a block of an account's credits in one
 * statement, spends it in memory, and settles what was spent (usage per key and operation) once
 * per CREDIT_LEASE_SETTLE_MS per account. Calls of accounts whose balance is too low for a lease
 * get `null` from `take` and are debited directly by the caller.
 */
@Injectable()
export class CreditLeases implements OnModuleInit, OnApplicationShutdown {
  /** Names this process in lease rows and ledger references. */
  readonly instance = `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  private readonly logger = new Logger(CreditLeases.name);
  private readonly leases = new Map<string, LocalLease>();
  private readonly reclaims = new Map<string, Promise<boolean>>();
  private readonly releaseWaiters = new Map<string, Set<() => void>>();
  private settleTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private settling: Promise<void> | null = null;

  constructor(
    private readonly repository: LeaseRepository,
    private readonly credits: CreditsService,
    @Inject(CREDITS_CONFIG) private readonly config: CreditsConfig,
  ) {}

  /**
   * Takes `cost` credits of the account from this instance's lease, reserving a block first when
   * the lease is empty. Resolves to null when the call must be debited directly: the balance is
   * below what a lease may hand out, or another instance asked for the credits back.
   */
  async take(accountId: string, cost: number): Promise<LeaseHold | null> {
    let lease = this.leases.get(accountId);
    if (!lease) {
      lease = newLease();
      this.leases.set(accountId, lease);
    }
    for (let attempt = 0; attempt < 3; attempt++) {
      const hold = this.takeFrom(accountId, lease, cost);
      if (hold) return hold;
      if (lease.draining || Date.now() < lease.directUntil) return null;
      await this.refill(accountId, lease, cost);
    }
    return null;
  }

  /**
   * `take` without waiting: the hold when this instance's lease of the account holds `cost`
   * now, else undefined (then call `take`, which may reserve a block or answer null). The
   * single-call path pays from here with no promise of its own.
   */
  takeNow(accountId: string, cost: number): LeaseHold | undefined {
    const lease = this.leases.get(accountId);
    return lease === undefined ? undefined : this.takeFrom(accountId, lease, cost);
  }

  /** The call succeeded: its credits are spent, counted for `keyId` and `operation`. */
  spend(hold: LeaseHold, keyId: string, operation: string): void {
    const lease = this.leases.get(hold.accountId)!;
    lease.inFlight -= hold.cost;
    lease.spentSinceTick += hold.cost;
    lease.usage.addCall(keyId, operation, hold.cost);
  }

  private takeFrom(accountId: string, lease: LocalLease, cost: number): LeaseHold | undefined {
    if (lease.remaining < cost) return undefined;
    lease.remaining -= cost;
    lease.inFlight += cost;
    this.prefetch(accountId, lease, cost);
    return { accountId, cost };
  }

  /** The call failed: its credits go back to the lease, nothing is charged. */
  giveBack(hold: LeaseHold): void {
    const lease = this.leases.get(hold.accountId)!;
    lease.inFlight -= hold.cost;
    lease.remaining += hold.cost;
  }

  /**
   * The balance a client sees: unreserved credits plus what open leases still hold, less what
   * this instance spent and has not settled yet. Calls other instances served since their last
   * settle are not subtracted (at most one settle interval of theirs).
   */
  async balance(accountId: string): Promise<number> {
    const lease = this.leases.get(accountId);
    if (!lease) return this.credits.balance(accountId);
    // Read between two settles of the lease, never during one (its spends would count twice
    // or not at all).
    let available = 0;
    await this.serial(lease, async () => {
      const balance = await this.credits.balance(accountId);
      let unsettled = 0;
      for (const usage of lease.usage.values()) unsettled += usage.credits;
      available = balance - unsettled;
    });
    return available;
  }

  /**
   * Settles what this instance spent of the account now instead of at the next interval, so a
   * page that reads usage from the database right after calls served here shows them.
   */
  async settleNow(accountId: string): Promise<void> {
    const lease = this.leases.get(accountId);
    if (lease) await this.settle(accountId, lease, false);
  }

  /**
   * A direct debit found the balance short: when other instances' leases hold credits of the
   * account, asks them to give them back and waits (at most CREDIT_LEASE_RECLAIM_WAIT_MS) until
   * one has. Resolves true when the caller should try its debit once more. Concurrent calls of
   * one account share one request.
   */
  reclaim(accountId: string): Promise<boolean> {
    let pending = this.reclaims.get(accountId);
    if (!pending) {
      pending = this.askAndWait(accountId).finally(() => this.reclaims.delete(accountId));
      this.reclaims.set(accountId, pending);
    }
    return pending;
  }

  /** A notification from any instance on CREDIT_LEASE_CHANNEL (see NotificationListener). */
  onNotice(notice: LeaseNotice): void {
    if (notice.instance === this.instance) return;
    if (notice.kind === 'released') {
      for (const wake of this.releaseWaiters.get(notice.accountId) ?? []) wake();
      return;
    }
    const lease = this.leases.get(notice.accountId);
    if (!lease?.leaseId) return;
    lease.draining = true;
    // Leave the account's credits to direct debits for a while, so instances do not take the
    // credits back and forth.
    lease.directUntil = Date.now() + this.config.CREDIT_LEASE_EXPIRY_MS;
    void this.settle(notice.accountId, lease, false);
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.settleTimer) clearInterval(this.settleTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.settleTimer = this.sweepTimer = null;
    await this.settling;
    await Promise.all([...this.leases].map(([id, lease]) => this.settle(id, lease, true)));
  }

  /** Settles this instance's leases and recovers expired ones of any instance. */
  onModuleInit(): void {
    this.settleTimer = setInterval(() => this.settleAll(), this.config.CREDIT_LEASE_SETTLE_MS);
    this.sweepTimer = setInterval(
      () => void this.sweep(),
      Math.max(this.config.CREDIT_LEASE_EXPIRY_MS / 2, this.config.CREDIT_LEASE_SETTLE_MS),
    );
    this.settleTimer.unref();
    this.sweepTimer.unref();
  }

  private settleAll(): void {
    if (this.settling) return;
    const interval = this.config.CREDIT_LEASE_SETTLE_MS;
    for (const lease of this.leases.values()) {
      lease.rate = nextRate(lease.rate, lease.spentSinceTick, interval);
      const idle = lease.spentSinceTick === 0 && lease.inFlight === 0;
      lease.idleTicks = idle ? lease.idleTicks + 1 : 0;
      lease.spentSinceTick = 0;
    }
    this.settling = Promise.all(
      [...this.leases].map(([id, lease]) => this.settle(id, lease, false)),
    ).then(() => {
      this.settling = null;
    });
  }

  private async sweep(): Promise<void> {
    try {
      const recovered = await this.repository.recoverExpired(this.config.CREDIT_LEASE_EXPIRY_MS);
      if (recovered > 0)
        this.logger.warn(`recovered ${counted(recovered, 'expired credit lease')}`);
    } catch (error) {
      this.logger.warn(`credit lease recovery failed: ${String(error)}`);
    }
  }

  /** Reserves a block ahead of need once the lease is down to about a second of calls. */
  private prefetch(accountId: string, lease: LocalLease, cost: number): void {
    if (lease.refill || lease.draining || Date.now() < lease.directUntil) return;
    if (lease.remaining >= Math.max(cost, lease.rate)) return;
    this.refill(accountId, lease, cost).catch((error: unknown) =>
      this.logger.warn(`credit lease prefetch failed: ${String(error)}`),
    );
  }

  private refill(accountId: string, lease: LocalLease, cost: number): Promise<void> {
    lease.refill ??= this.serial(lease, async () => {
      const { granted, leaseId } = await this.repository.reserve(
        accountId,
        this.instance,
        blockSize(lease.rate, cost),
        this.config.CREDIT_LEASE_MIN_BALANCE,
        cost,
      );
      if (granted === 0) {
        lease.directUntil = Date.now() + DIRECT_TICKS * this.config.CREDIT_LEASE_SETTLE_MS;
        return;
      }
      if (lease.leaseId !== null && lease.leaseId !== leaseId) this.lost(lease);
      lease.leaseId = leaseId;
      lease.remaining += granted;
      lease.lastSettled = Date.now();
    }).finally(() => {
      lease.refill = null;
    });
    return lease.refill;
  }

  /**
   * Writes what the lease spent since the last settle; gives its remaining credits back and
   * closes it when it is idle, asked for them, or the instance stops. A failed write is
   * retried at the next interval (nothing was written).
   */
  private settle(accountId: string, lease: LocalLease, stopping: boolean): Promise<void> {
    return this.serial(lease, async () => {
      const leaseId = lease.leaseId;
      if (!leaseId) {
        const unused = lease.inFlight === 0 && lease.usage.size === 0 && !lease.refill;
        if (unused && Date.now() >= lease.directUntil) this.leases.delete(accountId);
        return;
      }
      const idle =
        lease.idleTicks * this.config.CREDIT_LEASE_SETTLE_MS >= this.config.CREDIT_LEASE_IDLE_MS;
      const asked = lease.draining;
      const letGo = stopping || asked || idle;
      const release = letGo ? lease.remaining : 0;
      const close = letGo && lease.inFlight === 0;
      const fresh = Date.now() - lease.lastSettled < this.config.CREDIT_LEASE_EXPIRY_MS / 3;
      if (lease.usage.size === 0 && release === 0 && !close && fresh) return;
      const usage = [...lease.usage.values()];
      lease.usage = new UsageTally();
      lease.remaining -= release;
      try {
        const settled = await this.repository.settle(leaseId, this.instance, usage, release, close);
        lease.lastSettled = Date.now();
        if (!settled) {
          for (const u of usage) lease.usage.add(u);
          this.lost(lease);
        }
        if (!settled || close) {
          lease.leaseId = null;
          lease.draining = false;
        }
        if (asked && release > 0) await this.announceReleased(accountId);
      } catch (error) {
        for (const u of usage) lease.usage.add(u);
        lease.remaining += release;
        this.logger.warn(`credit lease settle failed, retrying: ${String(error)}`);
      }
    });
  }

  /**
   * Another instance recovered this lease after it expired (this instance stalled): what it
   * held is back in the balance, so its remaining credits are gone and the calls not settled
   * go unbilled (the bound in docs/credits.md).
   */
  private lost(lease: LocalLease): void {
    let unbilled = 0;
    for (const u of lease.usage.values()) unbilled += u.credits;
    this.logger.warn(
      `credit lease ${lease.leaseId} was recovered; ${counted(unbilled, 'credit')} unbilled`,
    );
    lease.usage = new UsageTally();
    lease.remaining = 0;
  }

  private async announceReleased(accountId: string): Promise<void> {
    const notice: LeaseNotice = { kind: 'released', accountId, instance: this.instance };
    await this.repository.notify(CREDIT_LEASE_CHANNEL, JSON.stringify(notice));
  }

  private async askAndWait(accountId: string): Promise<boolean> {
    let wake = (): void => undefined;
    const released = new Promise<void>((resolve) => (wake = resolve));
    const waiters = this.releaseWaiters.get(accountId) ?? new Set();
    waiters.add(wake);
    this.releaseWaiters.set(accountId, waiters);
    const timer = setTimeout(wake, this.config.CREDIT_LEASE_RECLAIM_WAIT_MS);
    try {
      const notice: LeaseNotice = { kind: 'release', accountId, instance: this.instance };
      const held = await this.repository.askHoldersToRelease(
        accountId,
        this.instance,
        CREDIT_LEASE_CHANNEL,
        JSON.stringify(notice),
      );
      if (held <= 0) return false;
      await released;
      return true;
    } finally {
      clearTimeout(timer);
      waiters.delete(wake);
      if (waiters.size === 0) this.releaseWaiters.delete(accountId);
    }
  }

  private serial(lease: LocalLease, step: () => Promise<void>): Promise<void> {
    const run = lease.chain.then(step);
    lease.chain = run.catch(() => undefined);
    return run;
  }
}
