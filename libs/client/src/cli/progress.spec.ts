import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BatchJob } from '../index';
import { barLine, jobHeading, plainLine, Throughput } from './progress';

function job(overrides: Partial<BatchJob>): BatchJob {
  return {
    id: 'job_0123456789abcdef0123456789abcdef',
    status: 'processing',
    type: 'email',
    total_rows: 1_000,
    processed_rows: 0,
    result_url: null,
    partial_result_url: null,
    created_at: '2026-11-28T00:12:57.123Z',
    file_name: 'emails.csv',
    summary: null,
    ...overrides,
  };
}

/** A Throughput on a clock the test moves. */
function clocked() {
  let now = 0;
  const throughput = new Throughput(() => now);
  return { throughput, at: (ms: number) => (now = ms) };
}

describe('the progress of batch run', () => {
  it('gives no rate for a job that ended between two polls: its rows over the interval are no rate', () => {
    const { throughput, at } = clocked();
    const small = { total_rows: 200 };
    at(0);
    assert.deepEqual(throughput.sample(job({ ...small, status: 'queued' })), {
      rowsPerSecond: null,
      etaSeconds: null,
    });
    at(3_000);
    const done = job({ ...small, status: 'done', processed_rows: 200 });
    const rate = throughput.sample(done);
    assert.deepEqual(rate, { rowsPerSecond: null, etaSeconds: null });
    assert.match(barLine(done, rate, 100), /\] 100% {2}200\/200 rows {2}– rows\/s {2}done$/);
  });

  it('measures the rate while the job runs and keeps it once the job is done', () => {
    const { throughput, at } = clocked();
    at(0);
    throughput.sample(job({ status: 'queued' }));
    at(1_000);
    assert.deepEqual(throughput.sample(job({ processed_rows: 100 })), {
      rowsPerSecond: 100,
      etaSeconds: 9,
    });
    at(2_000);
    assert.deepEqual(throughput.sample(job({ processed_rows: 300 })), {
      rowsPerSecond: 150,
      etaSeconds: 5,
    });
    at(9_000);
    const done = job({ status: 'done', processed_rows: 1_000 });
    const rate = throughput.sample(done);
    assert.deepEqual(rate, { rowsPerSecond: 150, etaSeconds: null });
    assert.equal(plainLine(done, rate), `${done.id} done 100% 1,000/1,000 rows  150 rows/s  done`);
  });

  it('names the job above the bar: its id, file name and rows', () => {
    assert.equal(
      jobHeading(job({ total_rows: 300_000 })),
      'job job_0123456789abcdef0123456789abcdef (emails.csv, 300,000 rows)',
    );
    assert.equal(
      jobHeading(job({ file_name: null, total_rows: 1 })),
      'job job_0123456789abcdef0123456789abcdef (1 row)',
    );
  });
});
