import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { recordCells } from '@verity/batch';
import type { TestStack } from '@verity/testing';
import { download, postBatch, waitForJob, type BatchField } from './batch-helpers';
import {
  PHONE_HEADER,
  columnsStack,
  footprint as footprintOf,
  resultLines,
  type Account,
} from './batch-columns.fixtures';

// National numbers: valid only with their country (07400 123456 is a GB mobile, 06 12 34 56 78
// a FR one); an international number needs none.
const GB_MOBILE = '07400 123456';
const FR_MOBILE = '06 12 34 56 78';
const US_E164 = '+14155552671';

// A CRM export with a country column: a country per row, an empty cell (the job's
// country_hint), a cell that is no country (no hint at all), a lower-case code.
const CRM_HEADER = 'name,phone,country';
const CRM_ROWS = [
  `Ann,${GB_MOBILE},GB`,
  `Bo,${FR_MOBILE},FR`,
  `Cy,${GB_MOBILE},`,
  `Di,${GB_MOBILE},Britain`,
  `Ed,${US_E164},us`,
];
/** The country each CRM row is parsed with, as a single call's country_hint (GB: the job's). */
const CRM_HINTS = ['GB', 'FR', 'GB', undefined, 'us'];
const CRM = `${CRM_HEADER}\n${CRM_ROWS.join('\n')}\n`;

describe('phone batches with their country: country_hint and country_column (embedded)', () => {
  let stack: TestStack;
  let owner: Account;

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

  /** The result cells a single call with `hint` gives `phone`, as the batch file writes them. */
  async function singleCall(phone: string, hint: string | undefined): Promise<string[]> {
    const res = await stack.client
      .withKey(owner.apiKey)
      .post('/v1/phone/validate', { phone, ...(hint !== undefined && { country_hint: hint }) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const { valid, e164, country, line_type, carrier, score } = res.body;
    return [String(valid), e164 ?? '', country ?? '', line_type, carrier ?? '', String(score), '1'];
  }

  it('country_hint parses every row of a single-column file with it: the single calls’ answers, same cost', async () => {
    const account = await stack.account(100, 'hint');
    const numbers = [GB_MOBILE, '020 7946 0018', US_E164, '12'];
    const file = `phone\n${numbers.join('\n')}\n`;
    const before = await footprint(account.accountId);
    const { created, final, text } = await run(
      [
        ['type', 'phone'],
        ['country_hint', 'gb'],
        ['file', file],
      ],
      account.apiKey,
    );
    assert.equal(created.body.country_hint, 'GB');
    assert.equal('country_column' in created.body, false);
    assert.equal(final.country_hint, 'GB');
    const lines = text.trimEnd().split('\n');
    assert.equal(lines[0], PHONE_HEADER);
    assert.equal(lines.length, numbers.length + 1);
    for (const [i, number] of numbers.entries()) {
      const cells = recordCells(lines[i + 1]);
      assert.equal(cells[0], number);
      assert.deepEqual(cells.slice(1), await singleCall(number, 'GB'), number);
    }
    assert.equal(recordCells(lines[1])[1], 'true', `${GB_MOBILE} is valid with GB`);
    assert.equal(recordCells(lines[1])[2], '+447400123456');
    const after = await footprint(account.accountId);
    assert.equal(after.balance, before.balance - numbers.length, 'one credit per row, as without');

    // Without the hint the same national number is not valid: the hint is what changed it.
    const plain = await run([
      ['type', 'phone'],
      ['file', `${GB_MOBILE}\n`],
    ]);
    assert.equal(recordCells(plain.text.split('\n')[1])[1], 'false');
    assert.equal('country_hint' in plain.final, false);
  });

  it('country_column gives each row its country: an empty cell falls back to country_hint, a cell that is no country to none', async () => {
    const account = await stack.account(100, 'column');
    const before = await footprint(account.accountId);
    const { created, final, text } = await run(
      [
        ['type', 'phone'],
        ['column', 'phone'],
        ['country_column', 'Country'],
        ['country_hint', 'GB'],
        ['file', CRM],
      ],
      account.apiKey,
    );
    assert.equal(created.body.total_rows, CRM_ROWS.length);
    assert.equal(final.country_hint, 'GB');
    assert.equal(final.country_column, 3);
    const lines = resultLines(text, CRM_ROWS);
    // The result's `country` is renamed where the input has a column of that name.
    assert.equal(
      lines[0],
      `${CRM_HEADER},valid,e164,verity_country,line_type,carrier,score,credits_used`,
    );
    for (const [i, row] of CRM_ROWS.entries()) {
      const cells = recordCells(lines[i + 1]);
      const phone = recordCells(row)[1];
      assert.deepEqual(cells.slice(3), await singleCall(phone, CRM_HINTS[i]), row);
    }
    const valid = CRM_ROWS.map((_, i) => recordCells(lines[i + 1])[3]);
    assert.deepEqual(valid, ['true', 'true', 'true', 'false', 'true']);
    const after = await footprint(account.accountId);
    assert.equal(after.balance, before.balance - CRM_ROWS.length);

    // By index, in a file without a header, and without country_hint: an empty cell is no country.
    const headerless = await run([
      ['type', 'phone'],
      ['column', '2'],
      ['header', 'false'],
      ['country_column', '3'],
      ['file', `${CRM_ROWS.join('\n')}\n`],
    ]);
    assert.equal(headerless.final.country_column, 3);
    assert.equal('country_hint' in headerless.final, false);
    const rows = resultLines(headerless.text, CRM_ROWS).slice(1);
    assert.deepEqual(
      rows.map((line) => recordCells(line)[3]),
      ['true', 'true', 'false', 'false', 'true'],
    );
  });

  it('refuses a bad country field before anything is stored or charged', async () => {
    const account = await stack.account(100, 'refusals');
    const before = await footprint(account.accountId);
    const cases: [BatchField[], number, RegExp][] = [
      [
        [
          ['type', 'phone'],
          ['country_hint', 'GBR'],
          ['file', `${GB_MOBILE}\n`],
        ],
        400,
        /^country_hint must be an ISO 3166-1 alpha-2 code$/,
      ],
      [
        [
          ['type', 'phone'],
          ['country_hint', 'ZZ'],
          ['file', `${GB_MOBILE}\n`],
        ],
        400,
        /^country_hint must be an ISO 3166-1 alpha-2 code$/,
      ],
      // Sent after the file: checked once every field is in.
      [
        [
          ['type', 'phone'],
          ['file', `${GB_MOBILE}\n`],
          ['country_hint', 'U.K.'],
        ],
        400,
        /^country_hint must be/,
      ],
      [
        [
          ['type', 'email'],
          ['country_hint', 'GB'],
          ['file', 'a@example.com\n'],
        ],
        400,
        /^country_hint applies to phone jobs only \(this job's type is email\)$/,
      ],
      [
        [
          ['type', 'ip'],
          ['column', '1'],
          ['country_column', '2'],
          ['file', '1.1.1.1,GB\n'],
        ],
        400,
        /^country_column applies to phone jobs only/,
      ],
      [
        [
          ['type', 'phone'],
          ['country_column', 'country'],
          ['file', `${GB_MOBILE}\n`],
        ],
        400,
        /^country_column goes with column/,
      ],
      [
        [
          ['type', 'phone'],
          ['column', 'phone'],
          ['country_column', '0'],
          ['file', CRM],
        ],
        400,
        /^country_column 0 is not a valid index/,
      ],
      [
        [
          ['type', 'phone'],
          ['column', '2'],
          ['header', 'false'],
          ['country_column', 'country'],
          ['file', CRM],
        ],
        400,
        /^a country_column name needs header=true$/,
      ],
      [
        [
          ['type', 'phone'],
          ['column', 'phone'],
          ['country_column', 'nation'],
          ['file', CRM],
        ],
        422,
        /^country_column: no column named "nation" in the header \(columns: name, phone, country\)$/,
      ],
      [
        [
          ['type', 'phone'],
          ['column', '2'],
          ['country_column', 'country'],
          ['file', `${CRM_ROWS.join('\n')}\n`],
        ],
        422,
        /^country_column "country" is a header name, but the file has no header line \(give a 1-based index\)$/,
      ],
      [
        [
          ['type', 'phone'],
          ['column', 'phone'],
          ['country_column', '4'],
          ['file', CRM],
        ],
        422,
        /^country_column 4 is past the last column \(the file has 3\)$/,
      ],
      [
        [
          ['type', 'phone'],
          ['column', '2'],
          ['file', CRM],
          ['country_column', 'phone'],
        ],
        400,
        /^country_column is the column being validated/,
      ],
    ];
    for (const [fields, status, message] of cases) {
      const res = await postBatch(stack.client, account.apiKey, fields);
      const what = JSON.stringify(fields.filter(([name]) => name !== 'file'));
      assert.equal(res.status, status, `${what}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, status === 400 ? 'validation_error' : 'unprocessable');
      assert.match(res.body.error.message, message, what);
    }
    assert.deepEqual(await footprint(account.accountId), before);
  });
});
