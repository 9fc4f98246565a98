import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ROW_BUS, type RowBus } from '@verity/ports';
import { startTestStack, type TestStack } from '@verity/testing';
import { IngestModule } from '../../apps/ingest/src/ingest.module';
import { ScorerModule } from '../../apps/scorer/src/scorer.module';
import { download, postBatch, waitForJob } from './batch-helpers';

/** Larger than one publish of the splitter (1 MiB and a message), so the limit is exact. */
const LIMIT = 2 * 1024 * 1024;
const NOTE = 'n'.repeat(2_000);

/** Wide rows: an IP beside a 2 KB note, so every reader chunk is cut in many messages. */
function wideFile(rows: number, tag: string): string {
  const lines = ['ip,note'];
  for (let i = 0; i < rows; i++) lines.push(`192.0.2.${i % 250},${tag}${i}${NOTE}`);
  return lines.join('\n') + '\n';
}

/**
 * The embedded default's row bus with a small ROW_BUS_MEMORY_MAX_BYTES: jobs of several
 * accounts at once complete with every row, while the bus never holds more than its limit.
 */
describe('batch memory: the in-process bus holds at most ROW_BUS_MEMORY_MAX_BYTES', () => {
  let stack: TestStack;

  before(async () => {
    stack = await startTestStack({
      env: {
        ROW_BUS_MEMORY_MAX_BYTES: String(LIMIT),
        BATCH_CHUNK_ROWS: '500',
        RATE_LIMIT_PER_SECOND: '10000',
        RATE_LIMIT_BURST: '10000',
      },
      modules: [IngestModule, ScorerModule],
    });
  });
  after(() => stack.close());

  it('concurrent wide-row jobs of three accounts complete while the backlog stays bounded', async (t) => {
    const bus = stack.app.get<RowBus & { backlog(): { topic: string; bytes: number }[] }>(ROW_BUS);
    let most = 0;
    const watching = setInterval(() => {
      for (const { bytes } of bus.backlog()) most = Math.max(most, bytes);
    }, 5);
    try {
      const rows = 3_000;
      const accounts = await Promise.all([1, 2, 3].map((i) => stack.account(10_000, `wide-${i}`)));
      const jobs = await Promise.all(
        accounts.map(async ({ apiKey }, i) => {
          const created = await postBatch(stack.client, apiKey, [
            ['type', 'ip'],
            ['column', 'ip'],
            ['file', wideFile(rows, `a${i}-`)],
          ]);
          assert.equal(created.status, 202, JSON.stringify(created.body));
          const final = (await waitForJob(stack.client.withKey(apiKey), created.body.id)).at(-1)!;
          return final.body as { status: string; result_url: string };
        }),
      );
      for (const [i, job] of jobs.entries()) {
        assert.equal(job.status, 'done');
        const lines = (await download(job.result_url)).text.trimEnd().split('\n');
        assert.equal(lines.length, rows + 1);
        // Every row once, in input order.
        assert.ok(lines[1].includes(`a${i}-0n`));
        assert.ok(lines[rows].includes(`a${i}-${rows - 1}n`));
      }
      // 3,000 rows of 2 KB are 6 MB a job: far more than the bus may hold at once.
      t.diagnostic(`largest backlog seen: ${most} bytes (limit ${LIMIT})`);
      assert.ok(most > 0);
      assert.ok(most <= LIMIT, `${most} bytes held`);
      // Every topic (chunks, progress, SMTP retries) is empty once the jobs are done.
      const left = bus.backlog();
      assert.ok(left.length > 0);
      assert.deepEqual(
        left.map((b) => b.bytes),
        left.map(() => 0),
      );
    } finally {
      clearInterval(watching);
    }
  });
});
