export {
  END_STATUSES,
  INITIAL_STATUS,
  JOB_STATES,
  JOB_TRANSITIONS,
  LIVE_STATUSES,
  RUNNING_STATUSES,
  fromStatuses,
  isEnded,
  isRunning,
  nextStatus,
  targetOf,
  type EndStatus,
  type FromStatus,
  type JobTransition,
  type LiveStatus,
} from './job-states';
export { END_EFFECTS, type EndEffect, type EndedJob } from './end-effects';
// The one door: its repository, transactions and effects runner stay inside this folder.
export { JobLifecycle } from './job-lifecycle';
export type { NewBatchJob, NewJobInput } from './job-lifecycle.repository';
export type { CreatedJob } from './job-transactions';
