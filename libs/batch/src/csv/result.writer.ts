import {
  CREDIT_COST,
  type BatchResultFields,
  type BatchType,
  type EmailFields,
  type EmailResult,
  type IpFields,
  type IpResult,
  type PhoneFields,
  type PhoneResult,
} from '@verity/contracts';
import { encodeCell, encodeLine, type CellValue } from './csv.cell';

/** An ip-job input that is not an IP address: still one output row, with valid=false. */
export interface InvalidIpRow {
  invalidIp: string;
}

/** What `formatResultRow` accepts for each job type. */
export interface ResultRowInput {
  email: EmailFields;
  phone: PhoneFields;
  ip: IpFields | InvalidIpRow;
}

/** A field the result file leaves out (the API's answer carries it, the CSV does not). */
const NOT_IN_FILE = 'not in the file';

/** The cell of one column, read from the engine's fields. */
type Cell<Row> = (row: Row) => CellValue;

/**
 * How every field of a result reaches the file: a column (the key is its header, the function
 * its cell) or NOT_IN_FILE. Mapped over the result type, so a new result field does not compile
 * until it is given one or the other; `Extra` names columns that are no field of the result.
 * Columns appear in the file in the order the keys are written.
 */
type ResultColumns<Result, Row, Extra extends string = never> = {
  readonly [K in keyof Result | Extra]-?: Cell<Row> | typeof NOT_IN_FILE;
};

/** The columns of a type for every field set (`fields`): each decides every field again. */
type FieldSets<Result, Row, Extra extends string = never> = {
  readonly [F in BatchResultFields]: ResultColumns<Result, Row, Extra>;
};

// Every batch row is charged at job creation, valid or not (spec: 1 credit per row).
const ROW_CREDITS = CREDIT_COST.batch_row;
const rowCredits = (): CellValue => ROW_CREDITS;

// The `spec` columns of each type, in the order docs/batch.md ("Result columns") gives them.
const EMAIL_SPEC: ResultColumns<EmailResult, EmailFields> = {
  input: (r) => r.input,
  valid_syntax: (r) => r.valid_syntax,
  mx_found: (r) => r.mx_found,
  disposable: (r) => r.disposable,
  score: (r) => r.score,
  deliverability: (r) => r.deliverability,
  credits_used: rowCredits,
  did_you_mean: NOT_IN_FILE,
  role_based: NOT_IN_FILE,
  free_provider: NOT_IN_FILE,
};

// `all` keeps the `spec` columns first, so a reader of a `spec` file reads it too.
const EMAIL_COLUMNS: FieldSets<EmailResult, EmailFields> = {
  spec: EMAIL_SPEC,
  all: {
    ...EMAIL_SPEC,
    did_you_mean: (r) => r.did_you_mean,
    role_based: (r) => r.role_based,
    free_provider: (r) => r.free_provider,
  },
};

const PHONE_SPEC: ResultColumns<PhoneResult, PhoneFields> = {
  input: (r) => r.input,
  valid: (r) => r.valid,
  e164: (r) => r.e164,
  country: (r) => r.country,
  line_type: (r) => r.line_type,
  carrier: (r) => r.carrier,
  score: (r) => r.score,
  credits_used: rowCredits,
  hlr: NOT_IN_FILE,
};

// Batch phone rows never run HLR (docs/batch.md, "Result columns"): `all` has nothing to add.
const PHONE_COLUMNS: FieldSets<PhoneResult, PhoneFields> = {
  spec: PHONE_SPEC,
  all: { ...PHONE_SPEC, hlr: NOT_IN_FILE },
};

// `valid` is no field of IpResult: a row that reaches the engine is an address.
const IP_SPEC: ResultColumns<IpResult, IpFields, 'valid'> = {
  input: (r) => r.input,
  valid: () => true,
  country: (r) => r.country,
  city: (r) => r.city,
  asn: (r) => r.asn,
  asn_org: (r) => r.asn_org,
  vpn: (r) => r.vpn,
  proxy: (r) => r.proxy,
  tor: (r) => r.tor,
  datacenter: (r) => r.datacenter,
  abuse_score: (r) => r.abuse_score,
  credits_used: rowCredits,
};

// The `spec` ip file already carries every field of IpResult (`lists` is `?explain=true` only).
const IP_COLUMNS: FieldSets<IpResult, IpFields, 'valid'> = { spec: IP_SPEC, all: IP_SPEC };

/** The result cells of one row of a type, for one field set, with or without `input`. */
export interface ResultColumnsOf<T extends BatchType> {
  /** Column names in file order. */
  readonly names: readonly string[];
  /** The row's cells as one CSV line ending in '\n'. */
  line(row: ResultRowInput[T]): string;
}

function columnsOf<Row>(
  columns: Record<string, Cell<Row> | typeof NOT_IN_FILE>,
  withInput: boolean,
): ResultColumnsOf<BatchType> {
  const kept = Object.entries(columns).filter(
    (entry): entry is [string, Cell<Row>] =>
      entry[1] !== NOT_IN_FILE && (withInput || entry[0] !== 'input'),
  );
  const names = kept.map(([name]) => name);
  const cells = kept.map(([, cell]) => cell) as Cell<unknown>[];
  // An input that is not an address: itself as input, valid=false, the row's credits, the rest empty.
  const invalidIp: readonly CellValue[] = names.map((name) =>
    name === 'valid' ? false : name === 'credits_used' ? ROW_CREDITS : null,
  );
  const inputAt = names.indexOf('input');
  return {
    names,
    line(row) {
      if (isInvalidIp(row)) {
        const values = invalidIp.slice();
        if (inputAt >= 0) values[inputAt] = row.invalidIp;
        return encodeLine(values);
      }
      // The line encodeLine writes, concatenated cell by cell: no array per row.
      let line = encodeCell(cells[0](row));
      for (let i = 1; i < cells.length; i++) line += `,${encodeCell(cells[i](row))}`;
      return `${line}\n`;
    },
  };
}

type Variants = Readonly<
  Record<BatchResultFields, readonly [ResultColumnsOf<BatchType>, ResultColumnsOf<BatchType>]>
>;

function variants<Row>(
  sets: Record<BatchResultFields, Record<string, Cell<Row> | typeof NOT_IN_FILE>>,
): Variants {
  return {
    spec: [columnsOf(sets.spec, true), columnsOf(sets.spec, false)],
    all: [columnsOf(sets.all, true), columnsOf(sets.all, false)],
  };
}

const RESULT_COLUMNS: Readonly<Record<BatchType, Variants>> = {
  email: variants(EMAIL_COLUMNS),
  phone: variants(PHONE_COLUMNS),
  ip: variants(IP_COLUMNS),
};

/**
 * The result columns of a type for a field set: with `input` first (the single-column file), or
 * without it (a multi-column file, whose input columns come first as they were uploaded).
 */
export function resultColumns<T extends BatchType>(
  type: T,
  fields: BatchResultFields = 'spec',
  withInput = true,
): ResultColumnsOf<T> {
  return RESULT_COLUMNS[type][fields][withInput ? 0 : 1];
}

/** The header line of a single-column `spec` result file, ending in '\n'. */
export function csvHeader(type: BatchType): string {
  return `${resultColumns(type).names.join(',')}\n`;
}

/** One data line of a single-column `spec` result file, ending in '\n'. */
export function formatResultRow<T extends BatchType>(type: T, row: ResultRowInput[T]): string {
  return resultColumns(type).line(row);
}

function isInvalidIp(row: unknown): row is InvalidIpRow {
  return typeof (row as Partial<InvalidIpRow>).invalidIp === 'string';
}
