import type { BatchResultFields, BatchType } from '@verity/contracts';
import { resultColumns } from './result.writer';
import { recordCells } from './table.header';

/** What decides a result file's header line: the job's type, field set and input layout. */
export interface ResultFileFormat {
  type: BatchType;
  fields: BatchResultFields;
  /** A multi-column upload: its header record (null when it had none) and column count. */
  input: { header: string | null; width: number } | null;
}

/** The prefix a result column gets when an input column already has its name. */
export const COLLISION_PREFIX = 'verity_';

const COMMA = ',';

/**
 * The header line of a result file, ending in '\n'. A single-column job's is the result
 * columns, `input` first. A multi-column job's is the input header record as uploaded (or
 * `column_1` … `column_W` when the file had none), then the result columns without `input`;
 * a result column named like an input column (case-insensitively, as the reader reads the
 * header's cells) gets COLLISION_PREFIX until it names none (docs/batch.md, "Multi-column files").
 */
export function resultHeader(format: ResultFileFormat): string {
  if (format.input === null)
    return `${resultColumns(format.type, format.fields).names.join(',')}\n`;
  const { header, width } = format.input;
  const inputNames =
    header ?? Array.from({ length: width }, (_, i) => `column_${i + 1}`).join(COMMA);
  const taken = new Set(recordCells(inputNames).map((cell) => cell.toLowerCase()));
  const names = resultColumns(format.type, format.fields, false).names.map((name) => {
    let unique = name;
    while (taken.has(unique.toLowerCase())) unique = `${COLLISION_PREFIX}${unique}`;
    taken.add(unique.toLowerCase());
    return unique;
  });
  return `${inputNames},${names.join(COMMA)}\n`;
}
