// Cell encoding of result files: RFC 4180 quoting plus spreadsheet formula neutralization.

/** A value a result cell can hold; null/undefined are written as an empty cell. */
export type CellValue = string | number | boolean | null | undefined;

// OWASP "CSV Injection": a cell that starts with one of these is run as a formula by Excel,
// LibreOffice and Google Sheets.
const FORMULA_TRIGGERS = new Set(['=', '+', '-', '@', '\t', '\r']);

// Numbers and phone-number shapes (+14155552671, -1, +1 (415) 555-2671, -0.5). At most they
// evaluate as arithmetic on literals; they cannot call a function, a link or DDE, because
// those need letters, `!` or `|`. Kept as they are so legitimate inputs survive unchanged.
const NUMBER_OR_PHONE = /^[+-]?[0-9][0-9 ().-]*$/;

/**
 * Prefixes a single quote to a value a spreadsheet would run as a formula (first character
 * `=`, `+`, `-`, `@`, TAB or CR), unless the value is a number or phone-number shape.
 */
export function neutralizeFormula(value: string): string {
  if (value.length === 0 || !FORMULA_TRIGGERS.has(value[0])) return value;
  if (NUMBER_OR_PHONE.test(value)) return value;
  return `'${value}`;
}

// RFC 4180 §2.6-2.7: a field containing a comma, a quote, CR or LF is quoted, quotes doubled.
const NEEDS_QUOTES = /[",\r\n]/;

/** Encodes one cell: booleans as true/false, null as empty, text neutralized then quoted. */
export function encodeCell(value: CellValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return '';
    return String(value);
  }
  const safe = neutralizeFormula(value);
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** Joins encoded cells into one CSV line ending in '\n'. */
export function encodeLine(cells: readonly CellValue[]): string {
  return `${cells.map(encodeCell).join(',')}\n`;
}
