import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import { Client } from 'pg';
import { encodeCell, recordCells } from '@verity/batch';
import { download, postBatch, waitForJob, type BatchField } from '../e2e/batch-helpers';
import { distributedSuite, startCluster, type Cluster } from './cluster';

const ROWS = 3_000;

/** A contacts export: quoted cells, a comma and `""` inside them, an embedded newline. */
function contacts(): { header: string; lines: string[]; phones: string[] } {
  const lines: string[] = [];
  const phones: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    const phone = i % 97 === 0 ? '12' : `+1415555${String(i % 10_000).padStart(4, '0')}`;
    const name = i % 5 === 0 ? `"Doe, ""J${i}"""` : i % 7 === 0 ? `"Multi\nline ${i}"` : `n${i}`;
    lines.push(`${name},${phone},"note ${i}"`);
    phones.push(phone);
  }
  return { header: 'name,"Mobile phone",note', lines, phones };
}

/**
 * Leads with a country column: a GB mobile with its code in the cell, a FR mobile, a GB mobile
 * with an empty cell (the job's country_hint), a GB mobile whose cell is no country; each row's
 * expected `valid` and `e164`.
 */
function leads(): { lines: string[]; expected: [string, string][] } {
  const kinds: [string, string, string, string][] = [
    ['07400 123456', 'GB', 'true', '+447400123456'],
    ['06 12 34 56 78', 'fr', 'true', '+33612345678'],
    ['07400 123456', '', 'true', '+447400123456'],
    ['07400 123456', 'Britain', 'false', ''],
  ];
  const lines: string[] = [];
  const expected: [string, string][] = [];
  for (let i = 0; i < ROWS; i++) {
    const [phone, country, valid, e164] = kinds[i % kinds.length];
    lines.push(`"Lead, ${i}",${phone},${country}`);
    expected.push([valid, e164]);
  }
  return { lines, expected };
}

async function run(cluster: Cluster, fields: BatchField[]) {
  const created = await postBatch(cluster.client, cluster.apiKey, fields);
  assert.equal(created.status, 202, JSON.stringify(created.body));
  const done = (await waitForJob(cluster.client, created.body.id, 180_000)).at(-1)!.body;
  assert.equal(done.status, 'done', JSON.stringify(done));
  assert.equal(done.processed_rows, ROWS);
  return { id: created.body.id as string, done, text: (await download(done.result_url)).text };
}

distributedSuite(
  'multi-column batch files, distributed (api, ingest, 2 scorers on Kafka and S3)',
  () => {
    let cluster: Cluster;

    before(async () => {
      cluster = await startCluster('columns', { credits: 3 * ROWS });
      cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-a'));
      cluster.scorers.push(await cluster.startWorker('scorer', 'scorer-b'));
    });
    after(() => cluster?.close());

    it('keeps every input line and appends the single-column result cells, charged once for the rows', async () => {
      const { header, lines, phones } = contacts();
      const single = await run(cluster, [
        ['type', 'phone'],
        ['file', `${phones.join('\n')}\n`],
      ]);
      const reference = single.text.split('\n');
      assert.equal(reference.length, ROWS + 2);

      // `column` after the file: the stored upload is read again in its format.
      const { id, text } = await run(cluster, [
        ['type', 'phone'],
        ['file', `${header}\r\n${lines.join('\r\n')}\r\n`],
        ['column', 'mobile phone'],
        ['fields', 'all'],
      ]);
      const expected = [
        `${header},${reference[0].slice('input,'.length)}`,
        ...lines.map((line, i) => {
          const input = encodeCell(phones[i]);
          assert.ok(reference[i + 1].startsWith(`${input},`), reference[i + 1]);
          return `${line},${reference[i + 1].slice(input.length + 1)}`;
        }),
      ];
      assert.ok(text === `${expected.join('\n')}\n`, 'the multi-column result differs');

      const pg = new Client({ connectionString: cluster.database.url });
      await pg.connect();
      try {
        const ledger = await pg.query<{ delta: number; reason: string }>(
          'SELECT delta::int AS delta, reason FROM credit_ledger WHERE reference = $1 ORDER BY id',
          [id],
        );
        assert.deepEqual(ledger.rows, [{ delta: -ROWS, reason: 'batch_row' }]);
        const chunks = await pg.query<{ n: number; rows: number }>(
          'SELECT count(*)::int AS n, sum(rows)::int AS rows FROM batch_chunks WHERE job_id = $1',
          [id],
        );
        assert.equal(chunks.rows[0].rows, ROWS);
        assert.equal(chunks.rows[0].n, ROWS / 500);
      } finally {
        await pg.end();
      }
    });

    it("carries a phone job's country_hint and country_column to the scorers: each row parsed with its country", async () => {
      const { lines, expected } = leads();
      const { done, text } = await run(cluster, [
        ['type', 'phone'],
        ['column', 'phone'],
        ['country_column', 'country'],
        ['country_hint', 'GB'],
        ['file', `name,phone,country\n${lines.join('\n')}\n`],
      ]);
      assert.equal(done.country_hint, 'GB');
      assert.equal(done.country_column, 3);
      const out = text.trimEnd().split('\n');
      assert.equal(
        out[0],
        'name,phone,country,valid,e164,verity_country,line_type,carrier,score,credits_used',
      );
      assert.equal(out.length, ROWS + 1);
      const got = out.slice(1).map((line, i) => {
        assert.ok(line.startsWith(`${lines[i]},`), line);
        const cells = recordCells(line);
        return [cells[3], cells[4]];
      });
      assert.deepEqual(got, expected);
    });
  },
);
