import type { BatchType, KeyMode } from '@verity/contracts';
import type { RowChunk } from '../csv/chunk.reader';
import type { JsonRows } from './json-rows';

const TAIL = Buffer.from(']}', 'utf8');

/**
 * The chunk message for the row bus, byte for byte what
 * `encodeMessage({ v: 1, jobId, type, chunkNo, firstRow, rows })` writes for the same rows
 * (with `"mode":"test"` after `type` for a test job; a live job's message has no mode),
 * without building a string per row, and written around the rows where they lie (JsonRows.framed).
 * Rows last and no spaces: the layout `decodeChunk` parses in slices (chunk-message.reader.ts).
 */
export function encodeChunk(
  jobId: string,
  type: BatchType,
  chunk: RowChunk<JsonRows>,
  mode: KeyMode = 'live',
): Buffer {
  const head = Buffer.from(
    `{"v":1,"jobId":${JSON.stringify(jobId)},"type":${JSON.stringify(type)},` +
      (mode === 'test' ? '"mode":"test",' : '') +
      `"chunkNo":${chunk.chunkNo},"firstRow":${chunk.firstRow},"rows":[`,
    'utf8',
  );
  return chunk.rows.framed(head, TAIL);
}
