import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SeededRandom } from '@verity/testing';
import { isHeaderName } from './header.names';
import {
  afterQuoteError,
  ambiguousColumn,
  columnPastEnd,
  chooseColumnError,
  columnsError,
  noRowsError,
  noSuchColumn,
  unclosedFieldError,
  unclosedQuoteError,
  widthError,
} from './input.errors';
import { SINGLE_COLUMN, type TableFormat } from './table.format';
import { TableReader } from './table.reader';

// TableReader against a reference parser written for clarity over strings: on seeded random
// files (quotes, escaped quotes, line breaks in quotes, every line ending, padding, blank lines,
// BOM, multi-byte characters, and some broken records), multi-column and single-column, both
// must give the same rows, header and column, or the same error, whatever the chunking.

interface Outcome {
  header: string | null;
  width: number;
  column: number;
  /** [value, raw record] per row. */
  rows: [string, string][];
}

const isPad = (c: string | undefined): boolean => c === ' ' || c === '\t';
const breaks = (text: string): number => text.match(/\r\n|\r|\n/g)?.length ?? 0;

function trim(text: string): string {
  let a = 0;
  let b = text.length;
  while (a < b && isPad(text[a])) a++;
  while (b > a && isPad(text[b - 1])) b--;
  return text.slice(a, b);
}

function resolve(
  cells: string[],
  format: TableFormat,
  line: number,
): { column: number; header: boolean } {
  const col = format.column;
  if ('name' in col) {
    let found = cells.flatMap((cell, i) => (cell === col.name ? [i] : []));
    if (found.length === 0) {
      found = cells.flatMap((cell, i) =>
        cell.toLowerCase() === col.name.toLowerCase() ? [i] : [],
      );
    }
    if (found.length === 0) throw noSuchColumn(col.name, cells, line);
    if (found.length > 1)
      throw ambiguousColumn(
        col.name,
        found.map((i) => cells[i]),
        line,
      );
    return { column: found[0], header: true };
  }
  if (col.index >= cells.length) throw columnPastEnd(col.index, cells.length, line);
  const cell = Buffer.from(cells[col.index]);
  const header = format.header === 'auto' ? isHeaderName(cell, 0, cell.length) : format.header;
  return { column: col.index, header };
}

function reference(file: string, format: TableFormat): Outcome {
  // The single-column file's rules: a comma outside quotes, or a line break inside them, is
  // refused on its line; a line whose value is empty is no row.
  const single = format.singleColumn === true;
  const text = file.startsWith('\ufeff') ? file.slice(1) : file;
  const n = text.length;
  const out: Outcome = { header: null, width: -1, column: -1, rows: [] };
  let i = 0;
  let line = 1;
  while (i < n) {
    if (text[i] === '\n' || text[i] === '\r') {
      i += text.startsWith('\r\n', i) ? 2 : 1;
      line++;
      continue;
    }
    const start = i;
    const recordLine = line;
    const cells: string[] = [];
    for (;;) {
      while (isPad(text[i])) i++;
      let content = '';
      if (text[i] === '"') {
        const openLine = line;
        i++;
        for (;;) {
          const close = text.indexOf('"', i);
          if (single && (close < 0 || breaks(text.slice(i, close)) > 0)) {
            throw unclosedQuoteError(line);
          }
          if (close < 0) throw unclosedFieldError(openLine);
          content += text.slice(i, close);
          line += breaks(text.slice(i, close));
          i = close + 1;
          if (text[i] !== '"') break;
          content += '"';
          i++;
        }
        while (isPad(text[i])) i++;
        if (i < n && !',\r\n'.includes(text[i])) throw afterQuoteError(line);
      } else {
        const begin = i;
        while (i < n && !',\r\n'.includes(text[i])) i++;
        content = text.slice(begin, i);
      }
      if (single && text[i] === ',') {
        throw out.width < 0 ? chooseColumnError(line) : columnsError(line);
      }
      cells.push(trim(content));
      if (text[i] !== ',') break;
      i++;
    }
    const raw = text.slice(start, i);
    i += text.startsWith('\r\n', i) ? 2 : 1;
    line++;
    if (single && cells[0] === '') continue;
    if (out.width < 0) {
      const first = resolve(cells, format, recordLine);
      out.width = cells.length;
      out.column = first.column;
      if (first.header) {
        out.header = raw;
        continue;
      }
    } else if (cells.length !== out.width) {
      throw widthError(recordLine, cells.length, out.width);
    }
    out.rows.push([cells[out.column], raw]);
  }
  if (out.rows.length === 0) throw noRowsError(out.header !== null);
  return out;
}

const LIMITS = { maxRows: 1e6, maxBytes: 1e9 };

function readCut(buf: Buffer, cuts: number[], format: TableFormat): Outcome | string {
  const rows: [string, string][] = [];
  const reader = new TableReader(LIMITS, format, (value, vs, ve, line, ls, le) => {
    rows.push([value.toString('utf8', vs, ve), line.toString('utf8', ls, le)]);
  });
  try {
    let at = 0;
    for (const cut of [...cuts, buf.length]) {
      reader.write(buf.subarray(at, cut));
      at = cut;
    }
    reader.end();
  } catch (err) {
    return (err as Error).message;
  }
  return { header: reader.header, width: reader.width, column: reader.columnIndex, rows };
}

class Files extends SeededRandom {
  int(max: number): number {
    return Math.floor(this.next() * max);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pads(): string {
    return this.chance(0.8) ? '' : this.pick([' ', '\t', '  ', ' \t']);
  }

  /** A cell as written, and its value. */
  cell(single: boolean): [string, string] {
    if (this.chance(0.3)) {
      // A single-column file refuses line breaks inside quotes: its cells rarely get them.
      const pieces = ['a', ',', '""', '\n', '\r\n', '\r', ' ', 'é', 'EMAIL', '\u{1F600}'].filter(
        (piece) => !single || !/[\r\n]/.test(piece) || this.chance(0.1),
      );
      const body = Array.from({ length: this.int(4) }, () => this.pick(pieces)).join('');
      const close = this.chance(0.03) ? '"x' : '"';
      return [`${this.pads()}"${body}${close}${this.pads()}`, trim(body.replaceAll('""', '"'))];
    }
    const pieces = ['a', 'b@x.io', 'é', '\u{1F600}', ' ', '\t', 'a"b', 'email', 'Phone', '7'];
    const text = Array.from({ length: this.int(3) }, () => this.pick(pieces)).join('');
    return [text, trim(text)];
  }

  /** A file of records of a common width (a few are not), or a single-column file. */
  file(single = false): { text: string; format: TableFormat } {
    const width = single ? 1 : 1 + this.int(4);
    const records: string[] = [];
    let names: string[] = [];
    for (let r = this.int(8) || this.int(8); r > 0; r--) {
      const count = width + (this.chance(0.03) ? this.pick([-1, 1]) : 0);
      const cells = Array.from({ length: Math.max(1, count) }, () => this.cell(single));
      if (records.length === 0) names = cells.map(([, value]) => value);
      records.push(cells.map(([raw]) => raw).join(','));
    }
    let text = this.chance(0.2) ? '\ufeff' : '';
    records.forEach((record, k) => {
      while (this.chance(0.15)) text += this.pick(['\n', '\r\n', '\r']);
      text += record;
      if (k < records.length - 1 || this.chance(0.7)) text += this.pick(['\n', '\r\n', '\r']);
    });
    if (this.chance(0.03)) text += `${this.pick(['a,', ''])}"unclosed\n`;
    if (single) return { text, format: SINGLE_COLUMN };
    let column: TableFormat['column'] = { index: this.int(this.chance(0.05) ? width + 2 : width) };
    if (this.chance(0.3)) {
      const name = this.chance(0.8) && names.length > 0 ? this.pick(names) : 'zz';
      column = { name: this.chance(0.3) ? name.toUpperCase() : name };
    }
    return { text, format: { column, header: this.pick([true, false, 'auto'] as const) } };
  }
}

/** Reads 1,500 seeded files (`single`: single-column ones); returns how many were refused. */
function agreeOnFiles(single: boolean): number {
  let errors = 0;
  for (let seed = 1; seed <= 1500; seed++) {
    const files = new Files(seed);
    const { text, format } = files.file(single);
    const buf = Buffer.from(text, 'utf8');
    let expected: Outcome | string;
    try {
      expected = reference(text, format);
    } catch (err) {
      expected = (err as Error).message;
      errors++;
    }
    const cutSets = [[], Array.from({ length: Math.max(0, buf.length - 1) }, (_, k) => k + 1)];
    for (let k = 0; k < 3; k++) {
      const cuts = new Set<number>();
      for (let c = files.int(6); c > 0; c--) cuts.add(files.int(buf.length + 1));
      cutSets.push([...cuts].sort((a, b) => a - b));
    }
    for (const cuts of cutSets) {
      const got = readCut(buf, cuts, format);
      assert.deepEqual(
        got,
        expected,
        `seed ${seed}, cuts ${cuts.join(',')}: ${JSON.stringify(text)}`,
      );
    }
  }
  return errors;
}

describe('TableReader against a reference parser', () => {
  it('agrees on seeded random files, whatever the chunking', () => {
    const errors = agreeOnFiles(false);
    // The generator must exercise both outcomes.
    assert.ok(errors > 100 && errors < 700, `${errors} files refused`);
  });

  it('agrees on seeded random single-column files, whatever the chunking', () => {
    const errors = agreeOnFiles(true);
    assert.ok(errors > 100 && errors < 700, `${errors} files refused`);
  });
});
