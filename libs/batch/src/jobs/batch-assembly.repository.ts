import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { jitteredBackoffMs } from '@verity/common';
import { BatchJobEntity } from '@verity/database';
import type { BatchJobRecord } from './batch-job.record';
import { updateJobReturning } from './batch-job.repository';
import { READY_TO_FINISH } from './job-status.sql';

/** Outcome of {@link BatchAssemblyRepository.tryAssembly}. */
export type AssemblyAttempt<T> =
  { state: 'busy' } | { state: 'not_ready' } | { state: 'assembled'; result: T };

/**
 * How long a claimed assembly stays another finisher's to leave alone without news from its
 * holder (renewed every third of it while the result file is written). A holder that died is
 * taken over after at most this long; a failing holder gives its claim back at once.
 */
const ASSEMBLY_LEASE_MS = 30_000;

/**
 * The end of a job's pipeline on its batch_jobs row: who may write the result file (the
 * assembly claim: a token led by the holder's name, and a lease). The move to done, which ends
 * the claim, is JobLifecycle.finish.
 */
@Injectable()
export class BatchAssemblyRepository {
  constructor(private readonly db: DataSource) {}

  private jobs() {
    return this.db.getRepository(BatchJobEntity);
  }

  /**
   * Runs `assemble` for a job whose every chunk is recorded, never twice at once across all
   * processes, and holding no transaction nor connection while it runs (it writes the result
   * file to the blob store): a short statement claims the assembly on the job row (a random
   * token and a lease, renewed while `assemble` runs), and `assemble` ends with
   * JobLifecycle.finish, itself one statement that checks the job's state. `busy` while another finisher's lease
   * lasts (try again later: it either finishes, and the job is then found done, or gives its
   * claim back on failure, or dies and its lease runs out); `not_ready` when the job is not
   * (or no longer) processing with every chunk in. `assemble` must be idempotent: a finisher
   * whose lease ran out may still be running it when another takes over.
   */
  async tryAssembly<T>(
    jobId: string,
    holder: string,
    assemble: (job: BatchJobRecord) => Promise<T>,
  ): Promise<AssemblyAttempt<T>> {
    // The holder's name leads the token, so a restarted holder can give back what it held.
    const token = `${holder}/${randomUUID()}`;
    const job = await updateJobReturning(this.db, (qb) =>
      qb
        .set({
          assemblyToken: token,
          assemblyLeaseUntil: () => `now() + ${ASSEMBLY_LEASE_MS} * interval '1 millisecond'`,
        })
        .where(`id = :jobId AND ${READY_TO_FINISH}`, { jobId })
        .andWhere('(assembly_lease_until IS NULL OR assembly_lease_until < now())'),
    );
    if (!job) {
      const ready = await this.jobs()
        .createQueryBuilder('j')
        .where(`j.id = :jobId AND ${READY_TO_FINISH}`, { jobId })
        .getExists();
      return { state: ready ? 'busy' : 'not_ready' };
    }
    const renewal = setInterval(() => {
      this.renewAssembly(jobId, token).catch(() => undefined); // the next renewal tries again
    }, ASSEMBLY_LEASE_MS / 3);
    try {
      return { state: 'assembled', result: await assemble(job) };
    } catch (error) {
      // Give the claim back so a redelivered report retries now, not after the lease; while
      // the database is unreachable, keep trying in the background until the lease ends.
      void this.releaseUntilDone(jobId, token);
      throw error;
    } finally {
      clearInterval(renewal);
    }
  }

  /**
   * Gives back every assembly claim `holder` holds: called by a holder that just started, so
   * any claim under its name is left from a run that died (the jobs are assembled again at
   * once instead of after the lease). Returns how many were given back.
   */
  async releaseAssembliesOf(holder: string): Promise<number> {
    const result = await this.jobs()
      .createQueryBuilder()
      .update()
      .set({ assemblyToken: null, assemblyLeaseUntil: null })
      .where('left(assembly_token, length(:prefix)) = :prefix', { prefix: `${holder}/` })
      .execute();
    return result.affected ?? 0;
  }

  private async releaseUntilDone(jobId: string, token: string): Promise<void> {
    const until = Date.now() + ASSEMBLY_LEASE_MS;
    for (let attempt = 1; Date.now() < until; attempt++) {
      try {
        await this.releaseAssembly(jobId, token);
        return;
      } catch {
        await sleep(jitteredBackoffMs(attempt, 100, 2_000), undefined, { ref: false });
      }
    }
  }

  private async renewAssembly(jobId: string, token: string): Promise<void> {
    await this.jobs().update(
      { id: jobId, assemblyToken: token },
      { assemblyLeaseUntil: () => `now() + ${ASSEMBLY_LEASE_MS} * interval '1 millisecond'` },
    );
  }

  private async releaseAssembly(jobId: string, token: string): Promise<void> {
    await this.jobs().update(
      { id: jobId, assemblyToken: token },
      { assemblyToken: null, assemblyLeaseUntil: null },
    );
  }
}
