import { pipeline } from 'node:stream/promises';
import { Writable, type Readable } from 'node:stream';
import type { UploadLimits } from './csv.grammar';
import { InputReader, type RowListener } from './input.reader';
import { ReaderTransform } from './reader.stream';

/**
 * Pass-through stream for `upload → inspector → blob store` of the spec's single-column file:
 * bytes go through unchanged while InputReader checks them (UTF-8, one column, limits).
 */
export class UploadInspector extends ReaderTransform<InputReader> {
  constructor(limits: UploadLimits, onRow?: RowListener) {
    super(new InputReader(limits, onRow));
  }
}

/** Result of a standalone inspection. */
export interface InspectionResult {
  rows: number;
  bytes: number;
}

/**
 * Checks a whole upload without storing it (bytes are discarded); rejects with the same
 * VerityError the inspector stream would raise.
 */
export async function inspectUpload(
  source: Readable,
  limits: UploadLimits,
  onRow?: RowListener,
): Promise<InspectionResult> {
  const inspector = new UploadInspector(limits, onRow);
  const sink = new Writable({
    write(_chunk: Buffer, _encoding, callback) {
      callback();
    },
  });
  await pipeline(source, inspector, sink);
  return { rows: inspector.rows, bytes: inspector.bytes };
}
