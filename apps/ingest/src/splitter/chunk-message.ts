import type { RowChunk } from '@verity/batch';
import type { BatchType } from '@verity/contracts';
import type { JsonRows } from './json-rows';

const TAIL = Buffer.from(']}', 'utf8');

/**
 * The chunk message for the row bus, byte for byte what
 * `encodeMessage({ v: 1, jobId, type, chunkNo, firstRow, rows })` writes for the same rows,
 * without building a string per row, and written around the rows where they lie (JsonRows.framed).
 */
export function chunkMessage(jobId: string, type: BatchType, chunk: RowChunk<JsonRows>): Buffer {
  const head = Buffer.from(
    `{"v":1,"jobId":${JSON.stringify(jobId)},"type":${JSON.stringify(type)},` +
      `"chunkNo":${chunk.chunkNo},"firstRow":${chunk.firstRow},"rows":[`,
    'utf8',
  );
  return chunk.rows.framed(head, TAIL);
}
