import type { BatchJobEntity } from '@verity/database';

/** A batch job as stored: the entity, without the assembly lease only the repository reads. */
export type BatchJobRecord = Omit<BatchJobEntity, 'assemblyToken' | 'assemblyLeaseUntil'>;
