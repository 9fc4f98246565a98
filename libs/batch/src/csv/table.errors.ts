import { VerityError } from '@verity/common';

// The table reader's refusals (422 unprocessable) that the single-column reader has no use for;
// the ones both share are in input.errors.ts.

/** A record whose cell count differs from the first record's. */
export function widthError(line: number, cells: number, width: number): VerityError {
  return new VerityError(
    'unprocessable',
    `line ${line} has ${cells} ${cells === 1 ? 'cell' : 'cells'}; the first line has ${width}`,
  );
}

export function recordTooLong(line: number, maxBytes: number): VerityError {
  return new VerityError(
    'unprocessable',
    `line ${line}: the record starting here is longer than ${maxBytes} bytes`,
  );
}

export function unclosedFieldError(line: number): VerityError {
  return new VerityError(
    'unprocessable',
    `line ${line}: quoted value is not closed before the end of the file`,
  );
}

/** Index 0-based; the message counts from 1 like the form field. */
export function columnPastEnd(index: number, width: number): VerityError {
  return new VerityError(
    'unprocessable',
    `column ${index + 1} is past the last column (the file has ${width})`,
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

export function noSuchColumn(name: string, header: readonly string[]): VerityError {
  return new VerityError(
    'unprocessable',
    `no column named ${JSON.stringify(name)} in the header (columns: ${listed(header)})`,
  );
}

export function ambiguousColumn(name: string, matches: readonly string[]): VerityError {
  return new VerityError(
    'unprocessable',
    `the header has several columns named ${JSON.stringify(name)}: ${listed(matches)}`,
  );
}
