import { VerityError } from '@verity/common';

// How a batch file is read: which column holds the values, and whether the first record is a
// header. Parsed from the upload's form fields `column` and `header`; without them the file is
// the single-column file (SINGLE_COLUMN).

/** The column by its header name, or by its position (0-based here; 1-based on the wire). */
export type TableColumn = { name: string } | { index: number };

export interface TableFormat {
  column: TableColumn;
  /**
   * Whether the first record is a header. 'auto': it is one when its cell in the chosen column
   * is a column name (header.names.ts), as in a single-column file.
   */
  header: boolean | 'auto';
  /**
   * The single-column file (docs/batch.md, "Input file"): the one-column case read by stricter
   * rules. A comma outside quotes is refused where it stands, a quoted value may not span
   * lines, a line whose value is empty (blank, padding, `""`) is no row, and the limit is per
   * physical line (DEFAULT_MAX_LINE_BYTES).
   */
  singleColumn?: true;
}

/** The single-column file: one value per line, a header when the first value is a column name. */
export const SINGLE_COLUMN: TableFormat = {
  column: { index: 0 },
  header: 'auto',
  singleColumn: true,
};

/** What the reader resolved of a multi-column file, as its job stores it. */
export interface TableInput {
  /** The validated column, 0-based. */
  column: number;
  /** The header record as uploaded, without its terminator; null when the file had none. */
  header: string | null;
  /** How many cells every record has. */
  width: number;
}

/** The format a job's file is read in again (the split), from what the upload resolved. */
export function storedFormat(column: number | null, header: string | null): TableFormat {
  return column === null ? SINGLE_COLUMN : { column: { index: column }, header: header !== null };
}

const DECIMAL = /^[0-9]+$/;
// Text that reads as a number but not as a 1-based index: 0, -2, 1.5, +3.
const NUMERIC = /^[-+]?[0-9]*\.?[0-9]+$/;

/**
 * Parses a column as a form field names it (`column`, `country_column`): a header name, or a
 * 1-based index written in decimal. Anything else → 400 validation_error naming `field`.
 */
export function columnOf(text: string, field: string): TableColumn {
  const value = text.trim();
  if (value === '') {
    throw new VerityError('validation_error', `${field} must be a header name or a 1-based index`);
  }
  if (!NUMERIC.test(value)) return { name: value };
  const index = Number(value);
  if (!DECIMAL.test(value) || !Number.isSafeInteger(index) || index < 1) {
    throw new VerityError(
      'validation_error',
      `${field} ${value} is not a valid index (columns are numbered from 1)`,
    );
  }
  return { index: index - 1 };
}

/**
 * Parses the form fields: `column` (columnOf) and `header` ('true', 'false' or absent).
 * `header` defaults to true for a name and to 'auto' for an index; a name needs a header.
 * Anything else → 400 validation_error.
 */
export function tableFormat(column: string, header: string | undefined): TableFormat {
  const parsed = columnOf(column, 'column');
  let flag: boolean | undefined;
  if (header === 'true') flag = true;
  else if (header === 'false') flag = false;
  else if (header !== undefined) {
    throw new VerityError('validation_error', `header must be true or false, got "${header}"`);
  }
  if ('index' in parsed) return { column: parsed, header: flag ?? 'auto' };
  if (flag === false) {
    throw new VerityError('validation_error', 'a column name needs header=true');
  }
  return { column: parsed, header: true };
}
