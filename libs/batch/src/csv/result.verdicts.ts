import { VerityError } from '@verity/common';
import {
  BATCH_VERDICTS,
  type BatchJobSummary,
  type BatchResultFields,
  type BatchType,
  type BatchVerdict,
  type Deliverability,
} from '@verity/contracts';
import { resultColumns, type InvalidIpRow, type ResultRowInput } from './result.writer';

const IP_FLAGS = ['vpn', 'proxy', 'tor', 'datacenter'] as const;

/**
 * The result columns a row's verdicts are read from: an engine's result is one as it is (an ip
 * result has no `valid`: a row that reached the engine is an address), a row of the result
 * file is read into one from its cells.
 */
interface VerdictColumns {
  deliverability?: string;
  valid?: boolean;
  vpn?: boolean;
  proxy?: boolean;
  tor?: boolean;
  datacenter?: boolean;
}

/** An ip row that is not an address. */
const NOT_AN_ADDRESS: VerdictColumns = { valid: false };

/**
 * The one definition of a row's verdicts (BATCH_VERDICTS, docs/batch.md "Summary"), from its
 * result columns: the scorer reads them from the engine's result (the summary), the download
 * from the result file's cells (`only=`), so both say the same of every row.
 */
function eachVerdict(
  type: BatchType,
  row: VerdictColumns,
  emit: (verdict: BatchVerdict) => void,
): void {
  switch (type) {
    case 'email':
      emit(row.deliverability as Deliverability);
      return;
    case 'phone':
      emit(row.valid === true ? 'valid' : 'invalid');
      return;
    case 'ip': {
      if (row.valid === false) return emit('invalid');
      let flagged = false;
      for (const flag of IP_FLAGS) {
        if (row[flag] === true) {
          flagged = true;
          emit(flag);
        }
      }
      if (!flagged) emit('clean');
      return;
    }
  }
}

function isInvalidIp(row: object): row is InvalidIpRow {
  return 'invalidIp' in row;
}

/** A chunk's rows counted by verdict while they are scored (the chunk's completion carries them). */
export class VerdictCounter {
  private readonly counts: Record<string, number> = {};
  private readonly add = (verdict: BatchVerdict) => this.counts[verdict]++;
  private readonly cells: ResultCells;

  constructor(
    private readonly type: BatchType,
    fields: BatchResultFields = 'spec',
  ) {
    for (const verdict of BATCH_VERDICTS[type]) this.counts[verdict] = 0;
    this.cells = new ResultCells(type, fields);
  }

  /** Counts one row from the engine's result. */
  count<T extends BatchType>(row: ResultRowInput[T]): void {
    eachVerdict(this.type, isInvalidIp(row) ? NOT_AN_ADDRESS : row, this.add);
  }

  /** Counts one row from its result line (a row settled in an earlier SMTP retry round). */
  countLine(line: string): void {
    eachVerdict(this.type, this.cells.read(parseRecord(line)), this.add);
  }

  /** The counts, every verdict of the type present. */
  summary(): BatchJobSummary {
    return { ...this.counts };
  }
}

/** Where the verdict columns sit in a record of a result file, counted from its end. */
class ResultCells {
  private readonly fromEnd: [keyof VerdictColumns, number][] = [];

  constructor(type: BatchType, fields: BatchResultFields) {
    // The result cells end every record (a multi-column file's input cells come first).
    const names = resultColumns(type, fields, true).names;
    for (const column of ['deliverability', 'valid', ...IP_FLAGS] as const) {
      const at = names.indexOf(column);
      if (at >= 0) this.fromEnd.push([column, names.length - at]);
    }
  }

  /** A record's verdict columns: booleans from `true`/`false`, the deliverability as written. */
  read(cells: readonly string[]): VerdictColumns {
    const row: VerdictColumns = {};
    for (const [column, fromEnd] of this.fromEnd) {
      const cell = cells[cells.length - fromEnd] ?? '';
      if (column === 'deliverability') row.deliverability = cell;
      else row[column] = cell === 'true';
    }
    return row;
  }
}

/**
 * Which rows of a result file a download keeps (`only=`): a row with at least one of `only`'s
 * verdicts (docs/batch.md, "Summary").
 */
export class VerdictFilter {
  private readonly cells: ResultCells;

  constructor(
    private readonly type: BatchType,
    fields: BatchResultFields,
    private readonly only: ReadonlySet<BatchVerdict>,
  ) {
    this.cells = new ResultCells(type, fields);
  }

  /** Whether the record (one row of the result file, without its line end) is kept. */
  keeps(record: string): boolean {
    let kept = false;
    eachVerdict(this.type, this.cells.read(parseRecord(record)), (v) => {
      if (this.only.has(v)) kept = true;
    });
    return kept;
  }
}

/**
 * The verdicts of `only=` (comma-separated, e.g. `deliverable,risky`) for a job of `type`;
 * 400 `validation_error` for an empty list or a verdict the type does not have.
 */
export function parseOnly(type: BatchType, only: unknown): Set<BatchVerdict> {
  const known: readonly string[] = BATCH_VERDICTS[type];
  const expected = `one or more of ${known.join(', ')}, separated by commas`;
  if (typeof only !== 'string') {
    throw new VerityError('validation_error', `only must be given once: ${expected}`);
  }
  const names = only
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.length === 0) {
    throw new VerityError('validation_error', `only names no verdict: ${expected}`);
  }
  for (const name of names) {
    if (!known.includes(name)) {
      throw new VerityError(
        'validation_error',
        `only: ${JSON.stringify(name.slice(0, 40))} is not a verdict of ${type} jobs: ${expected}`,
      );
    }
  }
  return new Set(names as BatchVerdict[]);
}

/** The cells of one CSV record (RFC 4180: quoted cells, doubled quotes), its line end excluded. */
export function parseRecord(record: string): string[] {
  const body = record.endsWith('\n') ? record.slice(0, record.endsWith('\r\n') ? -2 : -1) : record;
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    if (body[i] === '"') {
      let cell = '';
      i++;
      for (;;) {
        const quote = body.indexOf('"', i);
        if (quote < 0) {
          cell += body.slice(i);
          i = body.length;
          break;
        }
        cell += body.slice(i, quote);
        if (body[quote + 1] === '"') {
          cell += '"';
          i = quote + 2;
        } else {
          i = quote + 1;
          break;
        }
      }
      const comma = body.indexOf(',', i);
      cells.push(cell);
      if (comma < 0) return cells;
      i = comma + 1;
    } else {
      const comma = body.indexOf(',', i);
      if (comma < 0) {
        cells.push(body.slice(i));
        return cells;
      }
      cells.push(body.slice(i, comma));
      i = comma + 1;
    }
  }
}
