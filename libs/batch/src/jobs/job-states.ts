import {
  BATCH_STATUSES,
  type BatchErrorCode,
  type BatchListStatus,
  type BatchStatus,
} from '@verity/contracts';

/** What may happen to a job; JobLifecycle has one method per transition (cancel is a `fail`). */
export const JOB_TRANSITIONS = ['start', 'wait', 'finish', 'fail'] as const;
export type JobTransition = (typeof JOB_TRANSITIONS)[number];

/** One state's rules: whether the pipeline works on the job, and where each allowed move leads. */
interface StateRule {
  /** Chunks, split checkpoints and progress are recorded only in such a state. */
  readonly runs: boolean;
  readonly moves: Readonly<Partial<Record<JobTransition, BatchStatus>>>;
}

/**
 * The job state machine (docs/batch.md, "Job lifecycle"): for every status, the transitions
 * allowed from it and the status each leads to; a status with no move is an end. Keyed by
 * every BatchStatus (`satisfies`): a status added to BATCH_STATUSES does not compile until its
 * row here says what may happen from it.
 */
export const JOB_STATES = {
  queued: { runs: false, moves: { start: 'processing', fail: 'failed' } },
  processing: {
    runs: true,
    // `start` again is a re-split; `wait` keeps a job held by the SMTP retry window alive.
    moves: { start: 'processing', wait: 'processing', finish: 'done', fail: 'failed' },
  },
  done: { runs: false, moves: {} },
  failed: { runs: false, moves: {} },
} as const satisfies Record<BatchStatus, StateRule>;

type States = typeof JOB_STATES;

/** The status a job is created in. */
export const INITIAL_STATUS = 'queued' satisfies BatchStatus;

/** Statuses no transition leaves: where a job ends, and what its end effects are keyed by. */
export type EndStatus = {
  [S in BatchStatus]: keyof States[S]['moves'] extends never ? S : never;
}[BatchStatus];
/** Statuses before the end (counted against BATCH_MAX_ACTIVE_JOBS, recovered at start). */
export type LiveStatus = Exclude<BatchStatus, EndStatus>;
/** The statuses `transition` may leave from. */
export type FromStatus<T extends JobTransition> = {
  [S in BatchStatus]: T extends keyof States[S]['moves'] ? S : never;
}[BatchStatus];

/** Where `transition` leads from `from`; null when the machine refuses it there. */
export function nextStatus(from: BatchStatus, transition: JobTransition): BatchStatus | null {
  const moves: StateRule['moves'] = JOB_STATES[from].moves;
  return moves[transition] ?? null;
}

/** The statuses `transition` may leave from, in BATCH_STATUSES order (its SQL guard). */
export function fromStatuses<T extends JobTransition>(transition: T): readonly FromStatus<T>[] {
  return BATCH_STATUSES.filter((s) => nextStatus(s, transition) !== null) as FromStatus<T>[];
}

/** Where `transition` leads (every allowed start of it leads to the same status). */
export function targetOf(transition: JobTransition): BatchStatus {
  const [target, ...others] = new Set(
    BATCH_STATUSES.flatMap((s) => nextStatus(s, transition) ?? []),
  );
  if (target === undefined || others.length > 0)
    throw new Error(`transition ${transition} has no single target`);
  return target;
}

/** Whether a job in `status` has ended. */
export function isEnded(status: BatchStatus): status is EndStatus {
  return Object.keys(JOB_STATES[status].moves).length === 0;
}

/** Whether the pipeline works on a job in `status`. */
export function isRunning(status: BatchStatus): boolean {
  return JOB_STATES[status].runs;
}

export const END_STATUSES = BATCH_STATUSES.filter(isEnded);
export const LIVE_STATUSES = BATCH_STATUSES.filter((s): s is LiveStatus => !isEnded(s));
/** Statuses in which chunks, split checkpoints and progress are recorded. */
export const RUNNING_STATUSES = BATCH_STATUSES.filter(isRunning);

/** The jobs a `status` filter of the job list selects: a status, and for some a failure code. */
export interface JobListFilter {
  status: BatchStatus;
  failureCode?: BatchErrorCode;
}

/**
 * `cancelled` is no status of its own: a cancel is the `fail` transition with the code
 * cancelled, so the filter is the failed jobs with that code (and `failed` still lists them).
 */
export function listFilterOf(status: BatchListStatus): JobListFilter {
  return status === 'cancelled' ? { status: 'failed', failureCode: 'cancelled' } : { status };
}
