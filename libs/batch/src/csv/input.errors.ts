import { VerityError } from '@verity/common';

// The reader's refusals (413 payload_too_large, 422 unprocessable), by the physical line
// (1-based) or the byte offset where the file stops following the grammar. Some are the
// single-column file's alone (columnsError, lineTooLong, unclosedQuoteError), some a
// multi-column file's alone (the width, the record length, the chosen column).

/**
 * A 422 of the reader: the file does not follow the grammar (or names a column it lacks), so
 * every read of it is refused the same way; a worker fails the job at once instead of retrying.
 */
export class InputRefusal extends VerityError {
  constructor(message: string) {
    super('unprocessable', message);
  }
}

export function utf8Error(offset: number): InputRefusal {
  return new InputRefusal(`file is not valid UTF-8 (byte offset ${offset})`);
}

export function lineTooLong(line: number, maxLine: number): InputRefusal {
  return new InputRefusal(`line ${line} is longer than ${maxLine} bytes`);
}

export function columnsError(line: number): InputRefusal {
  return new InputRefusal(
    `line ${line} has more than one column (quote a value that contains a comma)`,
  );
}

/**
 * A comma in the first record of a file uploaded without a column: most often a CSV export
 * with several columns, so the message says how to choose one before how to quote a value.
 */
export function chooseColumnError(line: number): InputRefusal {
  return new InputRefusal(
    `line ${line} has several columns: choose the column to check (the column form field, --column in the CLI, Column in the console), or quote a value that contains a comma`,
  );
}

export function afterQuoteError(line: number): InputRefusal {
  return new InputRefusal(`line ${line}: unexpected character after a closing quote`);
}

export function tooManyRows(maxRows: number): InputRefusal {
  return new InputRefusal(`file has more than ${maxRows} rows`);
}

/** U+FEFF after the start of the file (see Utf8Scan). */
export function innerBomError(line: number): InputRefusal {
  return new InputRefusal(
    `line ${line} contains a byte order mark (U+FEFF); only the first line may start with one`,
  );
}

export function fileTooLarge(maxBytes: number): VerityError {
  return new VerityError('payload_too_large', `file is larger than the limit of ${maxBytes} bytes`);
}

/** A file without rows: empty, or only a header line. */
export function noRowsError(headerSkipped: boolean): InputRefusal {
  return new InputRefusal(headerSkipped ? 'file has a header line but no rows' : 'file is empty');
}

export function unclosedQuoteError(line: number): InputRefusal {
  return new InputRefusal(
    `line ${line}: quoted value is not closed (a quoted value may not span lines)`,
  );
}

/** A record whose cell count differs from the first record's. */
export function widthError(line: number, cells: number, width: number): InputRefusal {
  return new InputRefusal(
    `line ${line} has ${cells} ${cells === 1 ? 'cell' : 'cells'}; the first line has ${width}`,
  );
}

export function recordTooLong(line: number, maxBytes: number): InputRefusal {
  return new InputRefusal(
    `line ${line}: the record starting here is longer than ${maxBytes} bytes`,
  );
}

export function unclosedFieldError(line: number): InputRefusal {
  return new InputRefusal(`line ${line}: quoted value is not closed before the end of the file`);
}

/** Index 0-based; the message counts from 1 like the form field. */
export function columnPastEnd(index: number, width: number, line: number): InputRefusal {
  return new InputRefusal(
    `line ${line}: column ${index + 1} is past the last column (the file has ${width})`,
  );
}

const LISTED = 10;
const NAME_CHARS = 60;

// The first names of a header, each cut short, for a message.
function listed(names: readonly string[]): string {
  const shown = names
    .slice(0, LISTED)
    .map((name) => (name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name));
  return names.length > LISTED ? `${shown.join(', ')}… (${names.length} in all)` : shown.join(', ');
}

export function noSuchColumn(name: string, header: readonly string[], line: number): InputRefusal {
  return new InputRefusal(
    `line ${line}: no column named ${JSON.stringify(name)} in the header (columns: ${listed(header)})`,
  );
}

export function ambiguousColumn(
  name: string,
  matches: readonly string[],
  line: number,
): InputRefusal {
  return new InputRefusal(
    `line ${line}: the header has several columns named ${JSON.stringify(name)}: ${listed(matches)}`,
  );
}
