import {
  CREDIT_COST,
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

// Every batch row is charged at job creation, valid or not (spec: 1 credit per row).
const ROW_CREDITS = CREDIT_COST.batch_row;
const rowCredits = (): CellValue => ROW_CREDITS;

// Email columns are the spec's, in its order; phone and ip columns are ours (docs/batch.md).
const EMAIL_COLUMNS: ResultColumns<EmailResult, EmailFields> = {
  input: (r) => r.input,
  valid_syntax: (r) => r.valid_syntax,
  mx_found: (r) => r.mx_found,
  disposable: (r) => r.disposable,
  score: (r) => r.score,
  deliverability: (r) => r.deliverability,
  credits_used: rowCredits,
  role_based: NOT_IN_FILE,
  free_provider: NOT_IN_FILE,
  did_you_mean: NOT_IN_FILE,
};

const PHONE_COLUMNS: ResultColumns<PhoneResult, PhoneFields> = {
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

// `valid` is no field of IpResult: a row that reaches the engine is an address.
const IP_COLUMNS: ResultColumns<IpResult, IpFields, 'valid'> = {
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

/** A type's columns in file order: headers and cells, computed once. */
interface FileColumns<Row> {
  readonly names: readonly string[];
  readonly header: string;
  readonly cells: readonly Cell<Row>[];
}

function fileColumns<Row>(
  columns: Record<string, Cell<Row> | typeof NOT_IN_FILE>,
): FileColumns<Row> {
  const kept = Object.entries(columns).filter(
    (entry): entry is [string, Cell<Row>] => entry[1] !== NOT_IN_FILE,
  );
  const names = kept.map(([name]) => name);
  return {
    names,
    header: `${names.join(',')}\n`,
    cells: kept.map(([, cell]) => cell),
  };
}

const FILE_COLUMNS = {
  email: fileColumns(EMAIL_COLUMNS),
  phone: fileColumns(PHONE_COLUMNS),
  ip: fileColumns(IP_COLUMNS),
} satisfies Record<BatchType, FileColumns<never>>;

/** The header line of a result file, ending in '\n'. */
export function csvHeader(type: BatchType): string {
  return FILE_COLUMNS[type].header;
}

/** One data line of a result file, ending in '\n'. */
export function formatResultRow<T extends BatchType>(type: T, row: ResultRowInput[T]): string {
  if (isInvalidIp(row)) return encodeLine(invalidIpCells(row));
  // The line encodeLine writes, concatenated cell by cell: no array per row.
  const { cells } = FILE_COLUMNS[type] as FileColumns<unknown>;
  let line = encodeCell(cells[0](row));
  for (let i = 1; i < cells.length; i++) line += `,${encodeCell(cells[i](row))}`;
  return `${line}\n`;
}

// An input that is not an address: itself as input, valid=false, the row's credits, the rest empty.
const INVALID_IP_CELLS: readonly CellValue[] = FILE_COLUMNS.ip.names.map((name) =>
  name === 'valid' ? false : name === 'credits_used' ? ROW_CREDITS : null,
);
const INVALID_IP_INPUT = FILE_COLUMNS.ip.names.indexOf('input');

function invalidIpCells(row: InvalidIpRow): CellValue[] {
  const values = INVALID_IP_CELLS.slice();
  values[INVALID_IP_INPUT] = row.invalidIp;
  return values;
}

function isInvalidIp(row: ResultRowInput[BatchType]): row is InvalidIpRow {
  return typeof (row as Partial<InvalidIpRow>).invalidIp === 'string';
}
