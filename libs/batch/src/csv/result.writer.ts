import {
  CREDIT_COST,
  type BatchType,
  type EmailFields,
  type IpFields,
  type PhoneFields,
} from '@verity/contracts';
import { encodeLine, type CellValue } from './csv.cell';

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

// Email columns are the spec's, in its order; phone and ip columns are ours (docs/batch.md).
const COLUMNS = {
  email: ['input', 'valid_syntax', 'mx_found', 'disposable', 'score', 'deliverability'],
  phone: ['input', 'valid', 'e164', 'country', 'line_type', 'carrier', 'score'],
  ip: [
    'input',
    'valid',
    'country',
    'city',
    'asn',
    'asn_org',
    'vpn',
    'proxy',
    'tor',
    'datacenter',
    'abuse_score',
  ],
} as const satisfies Record<BatchType, readonly string[]>;

// Every batch row is charged at job creation, valid or not (spec: 1 credit per row).
const ROW_CREDITS = CREDIT_COST.batch_row;

/** The header line of a result file, ending in '\n'. */
export function csvHeader(type: BatchType): string {
  return `${[...COLUMNS[type], 'credits_used'].join(',')}\n`;
}

/** One data line of a result file, ending in '\n'. */
export function formatResultRow<T extends BatchType>(type: T, row: ResultRowInput[T]): string {
  return encodeLine([...cellsOf(type, row), ROW_CREDITS]);
}

function cellsOf(type: BatchType, row: ResultRowInput[BatchType]): CellValue[] {
  switch (type) {
    case 'email': {
      const r = row as EmailFields;
      return [r.input, r.valid_syntax, r.mx_found, r.disposable, r.score, r.deliverability];
    }
    case 'phone': {
      const r = row as PhoneFields;
      return [r.input, r.valid, r.e164, r.country, r.line_type, r.carrier, r.score];
    }
    case 'ip': {
      if (isInvalidIp(row)) {
        return [row.invalidIp, false, null, null, null, null, null, null, null, null, null];
      }
      const r = row as IpFields;
      return [
        r.input,
        true,
        r.country,
        r.city,
        r.asn,
        r.asn_org,
        r.vpn,
        r.proxy,
        r.tor,
        r.datacenter,
        r.abuse_score,
      ];
    }
  }
}

function isInvalidIp(row: ResultRowInput[BatchType]): row is InvalidIpRow {
  return typeof (row as Partial<InvalidIpRow>).invalidIp === 'string';
}
