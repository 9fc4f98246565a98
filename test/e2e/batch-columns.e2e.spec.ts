import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ApiKeysService } from '@verity/accounts';
import { encodeCell } from '@verity/batch';
import type { TestStack } from '@verity/testing';
import { download, postBatch, waitForJob, type BatchField } from './batch-helpers';
import {
  CRM,
  CRM_HEADER,
  CRM_ROWS,
  CRM_VALUES,
  EMAIL_ALL,
  EMAIL_HEADER,
  EMAIL_RESULT,
  IP_RESULT,
  NON_EMPTY,
  PHONE_HEADER,
  cellsAfterInput,
  columnsStack,
  footprint as footprintOf,
  resultLines,
  type Account,
} from './batch-columns.fixtures';

describe('multi-column batch files and fields=all (embedded)', () => {
  let stack: TestStack;
  let owner: Account;
  /** The single-column results of CRM_VALUES, keyed by value: the cells after `input`. */
  const reference = new Map<string, string>();

  before(async () => {
    stack = await columnsStack();
    owner = await stack.account(10_000, 'owner');
  });
  after(() => stack.close());

  const footprint = (accountId: string) => footprintOf(stack, accountId);

  async function run(fields: BatchField[], apiKey = owner.apiKey) {
    const created = await postBatch(stack.client, apiKey, fields);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const final = (await waitForJob(stack.client.withKey(apiKey), created.body.id)).at(-1)!.body;
    assert.equal(final.status, 'done', JSON.stringify(final));
    const file = await download(final.result_url);
    assert.equal(file.status, 200);
    return { created, final, text: file.text };
  }

  /** The single-column job of `values` (each quoted). */
  async function singleColumn(type: string, values: readonly string[], extra: BatchField[] = []) {
    const body = values.map((v) => `"${v.replace(/"/g, '""')}"`).join('\n') + '\n';
    return run([['type', type], ...extra, ['file', body]]);
  }

  /**
   * The `spec` result cells of every CRM value. An empty value is a blank line in a
   * single-column file (no row), so its cells are the single call's answer for an empty address.
   */
  async function emailReference(): Promise<Map<string, string>> {
    if (reference.size > 0) return reference;
    const { text } = await singleColumn('email', NON_EMPTY);
    const lines = text.split('\n');
    assert.equal(lines[0], EMAIL_HEADER);
    NON_EMPTY.forEach((v, i) => reference.set(v, cellsAfterInput(lines[i + 1], v)));
    const empty = await stack.client
      .withKey(owner.apiKey)
      .post('/v1/email/validate', { email: '' });
    assert.equal(empty.status, 200);
    const { valid_syntax, mx_found, disposable, score, deliverability } = empty.body;
    reference.set('', `${valid_syntax},${mx_found},${disposable},${score},${deliverability},1`);
    return reference;
  }

  it('keeps every input column as it was and appends the result columns (column by name); the header is not charged', async () => {
    const account = await stack.account(100, 'by-name');
    const before = await footprint(account.accountId);
    const { created, final, text } = await run(
      [
        ['type', 'email'],
        ['column', 'email'],
        ['file', CRM],
      ],
      account.apiKey,
    );
    assert.equal(created.body.total_rows, CRM_ROWS.length);
    assert.equal(final.processed_rows, CRM_ROWS.length);
    const lines = resultLines(text, CRM_ROWS);
    assert.equal(lines[0], `${CRM_HEADER},${EMAIL_RESULT}`);
    const expected = await emailReference();
    CRM_ROWS.forEach((row, i) =>
      assert.equal(lines[i + 1], `${row},${expected.get(CRM_VALUES[i])}`),
    );
    // Input cells are copied as uploaded; the result cells keep their own formula guard.
    assert.ok(lines[5].startsWith('=cmd,jane@gmial.com,"=HYPERLINK(""http://evil"")",true,'));
    assert.match(lines[4], /^Eve,,Empty Co,false,false,false,\d+,undeliverable,1$/);
    const after = await footprint(account.accountId);
    assert.equal(after.balance, before.balance - CRM_ROWS.length);
    assert.equal(after.ledger, before.ledger + 1);
  });

  it('takes a 1-based column index: a header name in that column is a header (auto), header=false reads every line', async () => {
    const byName = await run([
      ['type', 'email'],
      ['column', 'email'],
      ['file', CRM],
    ]);
    const auto = await run([
      ['type', 'email'],
      ['column', '2'],
      ['file', CRM],
    ]);
    assert.equal(auto.created.body.total_rows, CRM_ROWS.length);
    assert.equal(auto.text, byName.text);

    const headerless = `${CRM_ROWS.join('\n')}\n`;
    const noHeader = await run([
      ['type', 'email'],
      ['column', '2'],
      ['header', 'false'],
      ['file', headerless],
    ]);
    assert.equal(noHeader.created.body.total_rows, CRM_ROWS.length);
    const lines = resultLines(noHeader.text, CRM_ROWS);
    assert.equal(lines[0], `column_1,column_2,column_3,${EMAIL_RESULT}`);
    assert.deepEqual(lines.slice(1), resultLines(byName.text, CRM_ROWS).slice(1));

    // header=true with an index: the first line is a header whatever it holds.
    const named = await run([
      ['type', 'email'],
      ['column', '2'],
      ['header', 'true'],
      ['file', `Full name,Work mail,Org\n${CRM_ROWS[0]}\n`],
    ]);
    assert.equal(named.created.body.total_rows, 1);
    assert.equal(
      resultLines(named.text, [CRM_ROWS[0]])[0],
      `Full name,Work mail,Org,${EMAIL_RESULT}`,
    );
  });

  it('reads column, header and fields sent after the file', async () => {
    const before = await run([
      ['type', 'email'],
      ['column', 'email'],
      ['fields', 'all'],
      ['file', CRM],
    ]);
    const afterFile = await run([
      ['file', CRM],
      ['fields', 'all'],
      ['type', 'email'],
      ['column', 'email'],
    ]);
    assert.equal(afterFile.created.body.total_rows, CRM_ROWS.length);
    assert.equal(afterFile.text, before.text);
    const headerless = await run([
      ['type', 'email'],
      ['file', `${CRM_ROWS.join('\n')}\n`],
      ['header', 'false'],
      ['column', '2'],
    ]);
    assert.equal(headerless.created.body.total_rows, CRM_ROWS.length);
    assert.deepEqual(
      resultLines(headerless.text, CRM_ROWS).slice(1),
      resultLines(
        (
          await run([
            ['type', 'email'],
            ['column', 'email'],
            ['file', CRM],
          ])
        ).text,
        CRM_ROWS,
      ).slice(1),
    );
  });

  it('fields=all adds the email fields of the single-call answer, single- and multi-column', async () => {
    const single = await singleColumn('email', NON_EMPTY, [['fields', 'all']]);
    const lines = single.text.split('\n');
    assert.equal(lines[0], `${EMAIL_HEADER}${EMAIL_ALL}`);
    const api = stack.client.withKey(owner.apiKey);
    const expected = await emailReference();
    // Every value's extra cells, as its single-call answer gives them.
    const extraOf = new Map<string, string>();
    for (const value of CRM_VALUES) {
      const answer = await api.post('/v1/email/validate', { email: value });
      assert.equal(answer.status, 200);
      const extra = [answer.body.did_you_mean, answer.body.role_based, answer.body.free_provider];
      extraOf.set(value, extra.map((v) => encodeCell(v as string | boolean | null)).join(','));
    }
    NON_EMPTY.forEach((value, i) =>
      assert.equal(
        lines[i + 1],
        `${encodeCell(value)},${expected.get(value)},${extraOf.get(value)}`,
      ),
    );
    assert.ok(lines[4].includes(',1,jane@gmail.com,'), lines[4]);

    const multi = await run([
      ['type', 'email'],
      ['column', 'email'],
      ['fields', 'all'],
      ['file', CRM],
    ]);
    const rows = resultLines(multi.text, CRM_ROWS);
    assert.equal(rows[0], `${CRM_HEADER},${EMAIL_RESULT}${EMAIL_ALL}`);
    CRM_ROWS.forEach((row, i) => {
      const value = CRM_VALUES[i];
      assert.equal(rows[i + 1], `${row},${expected.get(value)},${extraOf.get(value)}`);
    });
  });

  it('fields=all for phone and ip: the spec file already has every field a batch row computes', async () => {
    const phones = ['+14155552671', '12'];
    const spec = await singleColumn('phone', phones);
    const all = await singleColumn('phone', phones, [['fields', 'all']]);
    assert.equal(all.text, spec.text);
    assert.equal(all.text.split('\n')[0], PHONE_HEADER);
    const multi = await run([
      ['type', 'phone'],
      ['column', 'mobile'],
      ['fields', 'all'],
      ['file', 'contact,mobile\n"Ann, A",+14155552671\nBo,12\n'],
    ]);
    const rows = resultLines(multi.text, ['"Ann, A",+14155552671', 'Bo,12']);
    assert.equal(rows[0], `contact,mobile,${PHONE_HEADER.slice('input,'.length)}`);
    const specLines = spec.text.split('\n');
    assert.equal(rows[1], `"Ann, A",+14155552671,${cellsAfterInput(specLines[1], phones[0])}`);
    assert.equal(rows[2], `Bo,12,${cellsAfterInput(specLines[2], phones[1])}`);

    const ips = ['8.8.8.8', 'not-an-ip'];
    const ipSpec = await singleColumn('ip', ips);
    assert.equal((await singleColumn('ip', ips, [['fields', 'all']])).text, ipSpec.text);
    const ipAll = await run([
      ['type', 'ip'],
      ['column', '2'],
      ['fields', 'all'],
      ['file', 'web,8.8.8.8\nbad,not-an-ip\n'],
    ]);
    const ipRows = resultLines(ipAll.text, ['web,8.8.8.8', 'bad,not-an-ip']);
    assert.equal(ipRows[0], `column_1,column_2,${IP_RESULT}`);
    assert.equal(ipRows[1], `web,8.8.8.8,${cellsAfterInput(ipSpec.text.split('\n')[1], ips[0])}`);
  });

  it('writes a valid=false row for a value that is not an IP in a multi-column ip file', async () => {
    const { final, text } = await run([
      ['type', 'ip'],
      ['column', 'IP'],
      ['file', 'host,ip,note\nweb,8.8.8.8,ok\nbad,not-an-ip,"x, y"\nnone,,\n'],
    ]);
    assert.equal(final.total_rows, 3);
    const lines = resultLines(text, ['web,8.8.8.8,ok', 'bad,not-an-ip,"x, y"', 'none,,']);
    assert.equal(lines[0], `host,ip,note,${IP_RESULT}`);
    assert.match(lines[1], /^web,8\.8\.8\.8,ok,true,/);
    assert.equal(lines[2], 'bad,not-an-ip,"x, y",false,,,,,,,,,,1');
    assert.equal(lines[3], 'none,,,false,,,,,,,,,,1');
  });

  it('prefixes verity_ to a result column an input column already names', async () => {
    const { text } = await run([
      ['type', 'email'],
      ['column', 'Email'],
      ['file', 'Email,Score,credits_used\na@example.com,7,x\n'],
    ]);
    const [header, row] = text.split('\n');
    assert.equal(
      header,
      'Email,Score,credits_used,valid_syntax,mx_found,disposable,verity_score,deliverability,verity_credits_used',
    );
    assert.match(row, /^a@example\.com,7,x,true,/);
  });

  it('runs a multi-column job on a test key: magic answers, nothing charged', async () => {
    const account = await stack.account(0, 'test-mode');
    const testKey = (
      await stack.app.get(ApiKeysService).create(account.accountId, 'ci', undefined, 'test')
    ).key;
    const before = await footprint(account.accountId);
    const rows = ['"Doe, Jane",deliverable@example.com', 'Ops,admin@example.com'];
    const { text } = await run(
      [
        ['type', 'email'],
        ['column', 'email'],
        ['fields', 'all'],
        ['file', `name,email\n${rows.join('\n')}\n`],
      ],
      testKey,
    );
    const lines = resultLines(text, rows);
    assert.equal(lines[1], `${rows[0]},true,true,false,100,deliverable,1,,false,false`);
    assert.equal(lines[2], `${rows[1]},true,true,false,69,risky,1,,true,false`);
    const after = await footprint(account.accountId);
    assert.equal(after.balance, before.balance);
    assert.equal(after.ledger, before.ledger);
  });

  it('leaves the single-column upload as it was: fields=spec and no fields give the same bytes', async () => {
    const body = 'jane.doe@example.com\r\n"Doe, Jane"\r\nnot an email\r\n';
    const plain = await run([
      ['type', 'email'],
      ['file', body],
    ]);
    const spec = await run([
      ['type', 'email'],
      ['fields', 'spec'],
      ['file', body],
    ]);
    assert.equal(spec.text, plain.text);
    const lines = plain.text.split('\n');
    assert.equal(lines[0], EMAIL_HEADER);
    assert.match(lines[1], /^jane\.doe@example\.com,true,true,false,\d+,[a-z_]+,1$/);
    assert.ok(lines[2].startsWith('"Doe, Jane",false,'), lines[2]);
    const jobs = await stack.dataSource.query<
      { input_column: number | null; input_header: string | null; result_fields: string }[]
    >('SELECT input_column, input_header, result_fields FROM batch_jobs WHERE id = $1', [
      plain.final.id,
    ]);
    assert.deepEqual(jobs, [{ input_column: null, input_header: null, result_fields: 'spec' }]);
  });
});
