import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { TestStack } from '@verity/testing';
import { postBatch, waitForJob, type BatchField } from './batch-helpers';
import {
  CRM,
  CRM_HEADER,
  CRM_ROWS,
  LARGE,
  columnsStack,
  footprint as footprintOf,
} from './batch-columns.fixtures';

describe('multi-column batch uploads: refusals and Idempotency-Key (embedded)', () => {
  let stack: TestStack;

  before(async () => {
    stack = await columnsStack();
  });
  after(() => stack.close());

  const footprint = (accountId: string) => footprintOf(stack, accountId);

  it('refuses bad format fields and files with the documented answer, storing and charging nothing', async () => {
    const account = await stack.account(1_000, 'refusals');
    const before = await footprint(account.accountId);
    const cases: { name: string; fields: BatchField[]; status: number; message?: RegExp }[] = [
      {
        name: 'a row with the wrong number of cells',
        fields: [
          ['type', 'email'],
          ['column', 'email'],
          ['file', `${CRM_HEADER}\na,b@example.com,c\nd,e@example.com\n`],
        ],
        status: 422,
        message: /line 3/,
      },
      {
        name: 'a row with the wrong number of cells, column after the file',
        fields: [
          ['type', 'email'],
          ['file', `${CRM_HEADER}\na,b@example.com,c\nd,e@example.com,f,g\n`],
          ['column', 'email'],
        ],
        status: 422,
        message: /line 3/,
      },
      {
        name: 'unknown column name',
        fields: [
          ['type', 'email'],
          ['column', 'mail_address'],
          ['file', CRM],
        ],
        status: 422,
        message: /^line 1: no column named "mail_address"/,
      },
      {
        name: 'column index past the last column',
        fields: [
          ['type', 'email'],
          ['column', '4'],
          ['file', CRM],
        ],
        status: 422,
        message: /^line 1: column 4 is past the last column/,
      },
      {
        name: 'too many rows',
        fields: [
          ['type', 'ip'],
          ['column', 'ip'],
          ['file', `host,ip\n${'h,1.1.1.1\n'.repeat(21)}`],
        ],
        status: 422,
      },
      {
        name: 'too large',
        fields: [
          ['type', 'ip'],
          ['column', 'ip'],
          ['file', LARGE],
        ],
        status: 413,
      },
      {
        name: 'too large, column after the file',
        fields: [
          ['type', 'ip'],
          ['file', LARGE],
          ['column', 'ip'],
        ],
        status: 413,
      },
      {
        name: 'header without column',
        fields: [
          ['type', 'email'],
          ['header', 'true'],
          ['file', 'a@example.com\n'],
        ],
        status: 400,
        message: /header/,
      },
      {
        name: 'header without column, after the file',
        fields: [
          ['type', 'email'],
          ['file', 'a@example.com\n'],
          ['header', 'false'],
        ],
        status: 400,
        message: /header/,
      },
      {
        name: 'bad fields',
        fields: [
          ['type', 'email'],
          ['fields', 'everything'],
          ['file', 'a@example.com\n'],
        ],
        status: 400,
        message: /fields/,
      },
      {
        name: 'bad fields after the file',
        fields: [
          ['type', 'email'],
          ['file', 'a@example.com\n'],
          ['fields', 'full'],
        ],
        status: 400,
        message: /fields/,
      },
      {
        name: 'bad header value',
        fields: [
          ['type', 'email'],
          ['column', 'email'],
          ['header', 'yes'],
          ['file', CRM],
        ],
        status: 400,
        message: /header/,
      },
      {
        name: 'a multi-column file without column',
        fields: [
          ['type', 'email'],
          ['file', CRM],
        ],
        status: 422,
        message:
          /^line 1 has several columns: choose the column to check \(the column form field, --column in the CLI, Column in the console\), or quote a value that contains a comma$/,
      },
    ];
    for (const c of cases) {
      const res = await postBatch(stack.client, account.apiKey, c.fields);
      assert.equal(res.status, c.status, `${c.name}: ${JSON.stringify(res.body)}`);
      const code = { 400: 'validation_error', 413: 'payload_too_large', 422: 'unprocessable' };
      assert.equal(res.body.error.code, code[c.status as 400 | 413 | 422], c.name);
      if (c.message) assert.match(res.body.error.message, c.message, c.name);
    }
    const after = await footprint(account.accountId);
    assert.deepEqual({ ...after, uploads: [] }, { ...before, uploads: [] });
    assert.deepEqual(
      after.uploads.filter((key) => !before.uploads.includes(key)),
      [],
      'no upload left behind',
    );
  });

  it('replays an Idempotency-Key only for the same column: another column is 422', async () => {
    const account = await stack.account(100, 'idempotent');
    const key = { 'Idempotency-Key': 'crm-1' };
    const fields = (column: string): BatchField[] => [
      ['type', 'email'],
      ['column', column],
      ['file', CRM],
    ];
    const first = await postBatch(stack.client, account.apiKey, fields('email'), key);
    const replay = await postBatch(stack.client, account.apiKey, fields('email'), key);
    assert.equal(first.status, 202);
    assert.equal(replay.status, 202);
    assert.equal(replay.body.id, first.body.id);
    const other = await postBatch(stack.client, account.apiKey, fields('2'), key);
    assert.equal(other.status, 422);
    assert.equal(other.body.error.code, 'unprocessable');
    const all = await postBatch(
      stack.client,
      account.apiKey,
      [...fields('email'), ['fields', 'all']],
      key,
    );
    assert.equal(all.status, 422);
    const state = await footprint(account.accountId);
    assert.equal(state.jobs, 1);
    assert.equal(state.balance, 100 - CRM_ROWS.length);
    await waitForJob(stack.client.withKey(account.apiKey), first.body.id);
  });
});
