import { z } from 'zod';
import { envInt } from '../env-types';

/** Credit leases of the API instances (docs/credits.md). */
export const creditsSchema = z.object({
  /**
   * Below this balance an instance takes no lease and every call is debited directly in
   * PostgreSQL (grouped per account), so the last credits are never stranded in a lease.
   */
  CREDIT_LEASE_MIN_BALANCE: envInt(1_000, 0),
  /** How often an instance settles what it spent (one statement per open lease). */
  CREDIT_LEASE_SETTLE_MS: envInt(1_000, 10),
  /** A lease without a call for this long gives its credits back and closes. */
  CREDIT_LEASE_IDLE_MS: envInt(3_000, 1),
  /**
   * A lease whose instance has not settled for this long is recovered by any other instance:
   * what it still held goes back to the balance (the calls since its last settle go unbilled).
   */
  CREDIT_LEASE_EXPIRY_MS: envInt(15_000, 100),
  /**
   * A call that finds the balance short while other instances hold leases asks them to give
   * their credits back and waits at most this long before answering 402.
   */
  CREDIT_LEASE_RECLAIM_WAIT_MS: envInt(2_000, 1),
});

/** The credits section of the validated config (inject it with CREDITS_CONFIG). */
export type CreditsConfig = z.infer<typeof creditsSchema>;
