import { isHeaderName } from './header.names';
import {
  ambiguousColumn,
  columnPastEnd,
  fieldColumnError,
  fieldColumnPastEnd,
  fieldColumnWithoutHeader,
  noSuchColumn,
} from './input.errors';
import type { TableColumn, TableFormat, TableInput } from './table.format';

// The first record of a multi-column file: its cells, the column they point to, and whether it
// is a header. Read once per file, so plain string work is fine here.

const isPadding = (c: string): boolean => c === ' ' || c === '\t';

/**
 * The cells of one record the reader has already accepted (text without its terminator): each
 * unquoted, `""` unescaped, padding trimmed.
 */
export function recordCells(record: string): string[] {
  const cells: string[] = [];
  const n = record.length;
  let i = 0;
  for (;;) {
    while (i < n && isPadding(record[i])) i++;
    let content = '';
    if (i < n && record[i] === '"') {
      i++;
      for (;;) {
        const close = record.indexOf('"', i);
        content += record.slice(i, close);
        i = close + 1;
        if (record[i] !== '"') break;
        content += '"';
        i++;
      }
      const comma = record.indexOf(',', i);
      i = comma < 0 ? n : comma;
    } else {
      const comma = record.indexOf(',', i);
      const end = comma < 0 ? n : comma;
      content = record.slice(i, end);
      i = end;
    }
    cells.push(trimPadding(content));
    if (i >= n) return cells;
    i++; // the comma
  }
}

function trimPadding(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isPadding(text[start])) start++;
  while (end > start && isPadding(text[end - 1])) end--;
  return text.slice(start, end);
}

/** What the first record says about the file. */
export interface FirstRecord {
  /** 0-based index of the chosen column. */
  column: number;
  /** True when the record is a header (no row). */
  header: boolean;
}

/** Resolves the format against the first record's cells; throws a 422 VerityError. */
export function readFirstRecord(
  cells: readonly string[],
  format: TableFormat,
  line: number,
): FirstRecord {
  const column = format.column;
  if ('name' in column) return { column: columnNamed(column.name, cells, line), header: true };
  if (column.index >= cells.length) throw columnPastEnd(column.index, cells.length, line);
  let header = format.header;
  if (header === 'auto') {
    const cell = Buffer.from(cells[column.index], 'utf8');
    header = isHeaderName(cell, 0, cell.length);
  }
  return { column: column.index, header };
}

// The header cell equal to `name`, else the only one equal ignoring case.
function columnNamed(name: string, cells: readonly string[], line: number): number {
  const found = namedCells(name, cells);
  if (found.length === 0) throw noSuchColumn(name, cells, line);
  if (found.length > 1)
    throw ambiguousColumn(
      name,
      found.map((index) => cells[index]),
      line,
    );
  return found[0];
}

// The header cells equal to `name`, else those equal ignoring case.
function namedCells(name: string, cells: readonly string[]): number[] {
  const found = matches(cells, (cell) => cell === name);
  if (found.length > 0) return found;
  const lower = name.toLowerCase();
  return matches(cells, (cell) => cell.toLowerCase() === lower);
}

/**
 * A further column of a file the upload has read (`country_column`), resolved like `column`
 * against its header or width: the 0-based index. Throws a 422 VerityError naming `field`
 * when the file has no such column, or no header to find a name in.
 */
export function resolveColumn(column: TableColumn, input: TableInput, field: string): number {
  if ('index' in column) {
    if (column.index < input.width) return column.index;
    throw fieldColumnPastEnd(field, column.index, input.width);
  }
  if (input.header === null) throw fieldColumnWithoutHeader(field, column.name);
  const cells = recordCells(input.header);
  const found = namedCells(column.name, cells);
  if (found.length === 1) return found[0];
  throw fieldColumnError(
    field,
    column.name,
    cells,
    found.map((index) => cells[index]),
  );
}

function matches(cells: readonly string[], test: (cell: string) => boolean): number[] {
  const found: number[] = [];
  cells.forEach((cell, index) => {
    if (test(cell)) found.push(index);
  });
  return found;
}
