import type { BatchJobEntity } from '@verity/database';

/**
 * A batch job as stored: the entity, without the assembly lease (BatchAssemblyRepository's) and
 * the end effects' mark (the lifecycle's).
 */
export type BatchJobRecord = Omit<
  BatchJobEntity,
  'assemblyToken' | 'assemblyLeaseUntil' | 'endEffectsDue'
>;
