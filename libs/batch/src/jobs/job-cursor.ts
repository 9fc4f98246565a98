import { VerityError } from '@verity/common';

// The cursor of GET /v1/batch: the last job of a page, as an opaque token. The next page holds
// the jobs after that one in (created_at, id) order, so jobs created meanwhile never shift it.

const PREFIX = 'j1.';
const JOB_ID = /^job_[0-9a-f]{32}$/;

/** The cursor that continues after `jobId`. */
export function encodeJobCursor(jobId: string): string {
  return PREFIX + Buffer.from(jobId, 'latin1').toString('base64url');
}

/** The job id a cursor continues after; 400 validation_error for anything `encodeJobCursor` did not write. */
export function decodeJobCursor(cursor: string): string {
  const jobId = cursor.startsWith(PREFIX)
    ? Buffer.from(cursor.slice(PREFIX.length), 'base64url').toString('latin1')
    : '';
  if (!JOB_ID.test(jobId) || encodeJobCursor(jobId) !== cursor) {
    throw new VerityError(
      'validation_error',
      'cursor is not valid: pass the next_cursor of the previous page',
    );
  }
  return jobId;
}
