import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { countLogLines } from './log-lines';

describe('countLogLines', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'verity-log-lines-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('counts the lines holding the needle across many read chunks, and the bytes read', async () => {
    // 3,000 lines of ~100 bytes: several of the stream's 64 KiB chunks, lines cut at their edges.
    const lines = Array.from({ length: 3_000 }, (_, i) =>
      i % 3 === 0
        ? `{"level":30,"reqId":"${i}","msg":"request completed"}`
        : `{"level":40,"reqId":"${i}","msg":"something else happened to request ${i}"}`,
    );
    const text = `${lines.join('\n')}\n`;
    const path = join(dir, 'access.log');
    await writeFile(path, text);
    const count = await countLogLines(path, '"request completed"');
    assert.deepEqual(count, { lines: 1_000, bytes: Buffer.byteLength(text) });
  });

  it('counts a last line without a newline, and nothing in an empty file', async () => {
    const partial = join(dir, 'partial.log');
    await writeFile(partial, 'a needle\nno\nneedle at the end');
    assert.equal((await countLogLines(partial, 'needle')).lines, 2);
    const empty = join(dir, 'empty.log');
    await writeFile(empty, '');
    assert.deepEqual(await countLogLines(empty, 'needle'), { lines: 0, bytes: 0 });
  });
});
