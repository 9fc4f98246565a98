import type { BatchResultFields, BatchType, KeyMode } from '@verity/contracts';
import type { RowChunk } from '../csv/chunk.reader';
import type { JsonRows } from './json-rows';

const TAIL = Buffer.from(']}', 'utf8');

/** How a job's chunks are laid out beyond a single-column file with the `spec` columns. */
export interface ChunkLayout {
  /** The job's result columns (`fields`); `spec` when absent. */
  fields?: BatchResultFields;
  /** Rows are value, raw line pairs (a JsonPairsCollector's), for a multi-column job. */
  lines?: boolean;
  /** The job asked for the SMTP mailbox probe. */
  smtp?: boolean;
}

/**
 * The chunk message for the row bus, byte for byte what
 * `encodeMessage({ v: 1, jobId, type, chunkNo, firstRow, rows })` writes for the same rows
 * (with `"mode":"test"` after `type` for a test job; a live job's message has no mode; then
 * `"fields":"all"`, `"layout":"lines"` and `"smtp":true` only when the job has them, so a single-column
 * `spec` job's message carries none of them), without building a string per row, and written around the rows where they lie (JsonRows.framed).
 * Rows last and no spaces: the layout `decodeChunk` parses in slices (chunk-message.reader.ts).
 */
export function encodeChunk(
  jobId: string,
  type: BatchType,
  chunk: RowChunk<JsonRows>,
  mode: KeyMode = 'live',
  layout: ChunkLayout = {},
): Buffer {
  return chunk.rows.framed(headOf(jobId, type, chunk, mode, layout), TAIL);
}

/** The length of `encodeChunk`'s message, without writing it (the rows are not copied). */
export function encodedChunkLength(
  jobId: string,
  type: BatchType,
  chunk: RowChunk<JsonRows>,
  mode: KeyMode = 'live',
  layout: ChunkLayout = {},
): number {
  return headOf(jobId, type, chunk, mode, layout).length + chunk.rows.json.length + TAIL.length;
}

function headOf(
  jobId: string,
  type: BatchType,
  chunk: RowChunk<JsonRows>,
  mode: KeyMode,
  layout: ChunkLayout,
): Buffer {
  return Buffer.from(
    `{"v":1,"jobId":${JSON.stringify(jobId)},"type":${JSON.stringify(type)},` +
      (mode === 'test' ? '"mode":"test",' : '') +
      (layout.fields === 'all' ? '"fields":"all",' : '') +
      (layout.lines === true ? '"layout":"lines",' : '') +
      (layout.smtp === true ? '"smtp":true,' : '') +
      `"chunkNo":${chunk.chunkNo},"firstRow":${chunk.firstRow},"rows":[`,
    'utf8',
  );
}
