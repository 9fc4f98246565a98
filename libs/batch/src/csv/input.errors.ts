import { VerityError } from '@verity/common';

// The input reader's refusals (422 unprocessable), by the physical line (1-based) or the byte
// offset where the file stops following the grammar.

export function utf8Error(offset: number): VerityError {
  return new VerityError('unprocessable', `file is not valid UTF-8 (byte offset ${offset})`);
}

export function lineTooLong(line: number, maxLine: number): VerityError {
  return new VerityError('unprocessable', `line ${line} is longer than ${maxLine} bytes`);
}

export function columnsError(line: number): VerityError {
  return new VerityError(
    'unprocessable',
    `line ${line} has more than one column (quote a value that contains a comma)`,
  );
}

export function afterQuoteError(line: number): VerityError {
  return new VerityError(
    'unprocessable',
    `line ${line}: unexpected character after a closing quote`,
  );
}

export function tooManyRows(maxRows: number): VerityError {
  return new VerityError('unprocessable', `file has more than ${maxRows} rows`);
}

/** U+FEFF after the start of the file (see InputReader). */
export function innerBomError(line: number): VerityError {
  return new VerityError(
    'unprocessable',
    `line ${line} contains a byte order mark (U+FEFF); only the first line may start with one`,
  );
}

export function fileTooLarge(maxBytes: number): VerityError {
  return new VerityError('payload_too_large', `file is larger than the limit of ${maxBytes} bytes`);
}

/** A file without rows: empty, or only a header line. */
export function noRowsError(headerSkipped: boolean): VerityError {
  return new VerityError(
    'unprocessable',
    headerSkipped ? 'file has a header line but no rows' : 'file is empty',
  );
}

export function unclosedQuoteError(line: number): VerityError {
  return new VerityError(
    'unprocessable',
    `line ${line}: quoted value is not closed (a quoted value may not span lines)`,
  );
}
