import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { resultFileName } from '@verity/contracts';
import { attachment } from './content-disposition';

describe('the result download’s file name', () => {
  it('is the uploaded file’s stem + -results.csv, or the job id’s for a job without a file name', () => {
    assert.equal(resultFileName('signups.csv', 'job_1'), 'signups-results.csv');
    assert.equal(resultFileName('signups', 'job_1'), 'signups-results.csv');
    assert.equal(resultFileName('a.b.csv', 'job_1'), 'a.b-results.csv');
    assert.equal(resultFileName('.hidden', 'job_1'), '.hidden-results.csv');
    assert.equal(resultFileName(null, 'job_1'), 'job_1-results.csv');
    assert.equal(resultFileName('', 'job_1'), 'job_1-results.csv');
  });

  it('travels as an ASCII filename and the exact UTF-8 filename*', () => {
    assert.equal(
      attachment('Liste "März"\\x.csv'),
      `attachment; filename="Liste _M_rz__x.csv"; filename*=UTF-8''Liste%20%22M%C3%A4rz%22%5Cx.csv`,
    );
    assert.equal(
      attachment("o'neil (1)*.csv"),
      `attachment; filename="o'neil (1)*.csv"; filename*=UTF-8''o%27neil%20%281%29%2A.csv`,
    );
  });
});
