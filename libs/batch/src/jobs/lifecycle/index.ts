export { END_EFFECTS, type EndEffect, type EndedJob } from './end-effects';
// The one door: its repository, transactions and effects runner stay inside this folder.
export { JobLifecycle } from './job-lifecycle';
export type { NewBatchJob, NewJobInput } from './job-lifecycle.repository';
export type { CreatedJob } from './job-transactions';
