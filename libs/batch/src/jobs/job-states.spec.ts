import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BATCH_STATUSES, type BatchStatus } from '@verity/contracts';
import { END_EFFECTS } from './lifecycle/end-effects';
import {
  END_STATUSES,
  INITIAL_STATUS,
  JOB_TRANSITIONS,
  LIVE_STATUSES,
  RUNNING_STATUSES,
  fromStatuses,
  isEnded,
  isRunning,
  nextStatus,
  targetOf,
  type JobTransition,
} from './job-states';
import { READY_TO_FINISH, statusIn } from './job-status.sql';

/** The diagram of docs/batch.md ("Job lifecycle"), written out: every pair, allowed or not. */
const EXPECTED: Record<BatchStatus, Record<JobTransition, BatchStatus | null>> = {
  queued: { start: 'processing', wait: null, finish: null, fail: 'failed' },
  processing: { start: 'processing', wait: 'processing', finish: 'done', fail: 'failed' },
  done: { start: null, wait: null, finish: null, fail: null },
  failed: { start: null, wait: null, finish: null, fail: null },
};

describe('job state machine', () => {
  it('allows exactly the documented transitions and refuses every other', () => {
    for (const from of BATCH_STATUSES) {
      for (const transition of JOB_TRANSITIONS) {
        assert.equal(
          nextStatus(from, transition),
          EXPECTED[from][transition],
          `${transition} from ${from}`,
        );
      }
    }
  });

  it('gives each transition the statuses it leaves from (its SQL guard) and one target', () => {
    assert.deepEqual(fromStatuses('start'), ['queued', 'processing']);
    assert.deepEqual(fromStatuses('wait'), ['processing']);
    assert.deepEqual(fromStatuses('finish'), ['processing']);
    assert.deepEqual(fromStatuses('fail'), ['queued', 'processing']);
    assert.deepEqual(
      JOB_TRANSITIONS.map((t) => [t, targetOf(t)]),
      [
        ['start', 'processing'],
        ['wait', 'processing'],
        ['finish', 'done'],
        ['fail', 'failed'],
      ],
    );
  });

  it('names the ends, the live statuses and the running one', () => {
    assert.equal(INITIAL_STATUS, 'queued');
    assert.deepEqual(END_STATUSES, ['done', 'failed']);
    assert.deepEqual(LIVE_STATUSES, ['queued', 'processing']);
    assert.deepEqual(RUNNING_STATUSES, ['processing']);
    assert.deepEqual(BATCH_STATUSES.filter(isEnded), ['done', 'failed']);
    assert.deepEqual(BATCH_STATUSES.filter(isRunning), ['processing']);
  });

  it('reaches every status from the initial one, and an end from every status', () => {
    const reachable = new Set<BatchStatus>([INITIAL_STATUS]);
    for (let grew = true; grew;) {
      grew = false;
      for (const from of [...reachable]) {
        for (const t of JOB_TRANSITIONS) {
          const to = nextStatus(from, t);
          if (to !== null && !reachable.has(to)) {
            reachable.add(to);
            grew = true;
          }
        }
      }
    }
    assert.deepEqual([...reachable].sort(), [...BATCH_STATUSES].sort());
    for (const from of LIVE_STATUSES) {
      const ends = JOB_TRANSITIONS.map((t) => nextStatus(from, t)).filter(
        (to) => to !== null && isEnded(to),
      );
      assert.ok(ends.length > 0, `${from} can end`);
    }
  });

  it('gives every end effect a step for every end status', () => {
    for (const [name, effect] of Object.entries(END_EFFECTS)) {
      for (const status of END_STATUSES) {
        assert.equal(typeof effect[status], 'function', `${name} after ${status}`);
      }
    }
  });
});

describe('statusIn', () => {
  it('spells the statuses as the partial indexes on status spell them', () => {
    assert.equal(statusIn(LIVE_STATUSES), "status IN ('queued', 'processing')");
    assert.equal(statusIn(RUNNING_STATUSES, 'b'), "b.status = 'processing'");
    assert.equal(statusIn([]), 'false');
    assert.equal(
      READY_TO_FINISH,
      "status = 'processing' AND chunk_count IS NOT NULL AND chunks_done = chunk_count",
    );
  });

  it('refuses anything that is not a job status', () => {
    assert.throws(
      () => statusIn(["processing') OR ('x" as BatchStatus]),
      /not a job status: processing'\) OR \('x/,
    );
  });
});
