import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BatchJob } from '../index';
import { jobState, jobTable, nextPageCommand } from './job-list';

function job(overrides: Partial<BatchJob>): BatchJob {
  return {
    id: 'job_0123456789abcdef0123456789abcdef',
    status: 'done',
    type: 'email',
    total_rows: 12_500,
    processed_rows: 12_500,
    result_url: null,
    partial_result_url: null,
    created_at: '2026-11-28T00:12:57.123Z',
    file_name: 'emails.csv',
    summary: null,
    ...overrides,
  };
}

describe('the batch list table', () => {
  it('calls a cancelled job cancelled and any other failure failed', () => {
    const cancelled = job({
      status: 'failed',
      error: { code: 'cancelled', message: 'the job was cancelled' },
    });
    const broken = job({ status: 'failed', error: { code: 'unprocessable', message: 'bad' } });
    assert.equal(jobState(cancelled), 'cancelled');
    assert.equal(jobState(broken), 'failed');
    assert.equal(jobState(job({ status: 'queued' })), 'queued');
  });

  it('lines up id, file, type, state, processed/total rows and the UTC time', () => {
    const text = jobTable([
      job({}),
      job({
        id: 'job_ffffffffffffffffffffffffffffffff',
        status: 'failed',
        error: { code: 'cancelled', message: 'the job was cancelled' },
        type: 'phone',
        processed_rows: 0,
        total_rows: 3,
        file_name: null,
        created_at: '2026-11-27T23:59:59.999Z',
      }),
    ]);
    assert.deepEqual(text.split('\n'), [
      'ID                                    FILE        TYPE   STATUS     ROWS           CREATED (UTC)',
      'job_0123456789abcdef0123456789abcdef  emails.csv  email  done       12,500/12,500  2026-11-28 00:12:57',
      'job_ffffffffffffffffffffffffffffffff  –           phone  cancelled  0/3            2026-11-27 23:59:59',
    ]);
  });

  it('shortens a long file name to 40 characters', () => {
    const [, line] = jobTable([job({ file_name: `${'a'.repeat(60)}.csv` })]).split('\n');
    assert.ok(line.includes(`${'a'.repeat(39)}…  email`), line);
  });

  it('is the header alone for no jobs', () => {
    assert.equal(jobTable([]), 'ID  FILE  TYPE  STATUS  ROWS  CREATED (UTC)');
  });
});

describe('the command for the next page', () => {
  it('repeats the filters the page was asked with, quoting what the shell would split', () => {
    assert.equal(
      nextPageCommand('node bin/verity.js', 'j1.abc_-', { status: 'done', limit: '5' }),
      'node bin/verity.js batch list --cursor j1.abc_- --status done --limit 5',
    );
    assert.equal(
      nextPageCommand('./node_modules/.bin/verity', "it's", { url: 'http://127.0.0.1:8080' }),
      `./node_modules/.bin/verity batch list --cursor 'it'\\''s' --url http://127.0.0.1:8080`,
    );
  });
});
