import { BATCH_RESULT_FIELDS, type BatchResultFields } from '@verity/contracts/wire';
import { UsageError } from './usage.error';

/** The multi-column, result-column and country options of `batch run`, as the SDK takes them. */
export interface UploadOptions {
  column?: string | number;
  header?: boolean;
  fields?: BatchResultFields;
  countryHint?: string;
  countryColumn?: string | number;
}

/**
 * `--column C` (digits: a 1-based index, anything else: a header name), `--header true|false`
 * (only with `--column`), `--fields spec|all`, `--country CC` and `--country-column C` (only
 * with `--column`; the server checks the code and that the job is a phone job). Options not
 * given stay absent, so a plain upload sends only what it always sent.
 */
export function uploadOptions(values: {
  column?: string;
  header?: string;
  fields?: string;
  country?: string;
  'country-column'?: string;
}): UploadOptions {
  const options: UploadOptions = {};
  if (values.column !== undefined) options.column = columnOf(values.column, '--column');
  if (values.header !== undefined) {
    if (values.column === undefined)
      throw new UsageError('--header goes with --column (a single-column file needs neither)');
    if (values.header !== 'true' && values.header !== 'false')
      throw new UsageError(`--header must be true or false, got "${values.header}"`);
    options.header = values.header === 'true';
  }
  if (values.fields !== undefined) {
    const fields = values.fields as BatchResultFields;
    if (!BATCH_RESULT_FIELDS.includes(fields))
      throw new UsageError(
        `--fields must be one of ${BATCH_RESULT_FIELDS.join(', ')}, got "${values.fields}"`,
      );
    options.fields = fields;
  }
  if (values.country !== undefined) {
    if (!/^[A-Za-z]{2}$/.test(values.country.trim()))
      throw new UsageError(
        `--country takes an ISO 3166-1 alpha-2 code such as GB, got "${values.country}"`,
      );
    options.countryHint = values.country.trim().toUpperCase();
  }
  const countryColumn = values['country-column'];
  if (countryColumn !== undefined) {
    if (values.column === undefined)
      throw new UsageError(
        '--country-column goes with --column (a single-column file has no other column; --country applies to every row)',
      );
    options.countryColumn = columnOf(countryColumn, '--country-column');
  }
  return options;
}

function columnOf(value: string, flag: string): string | number {
  if (value.trim() === '') throw new UsageError(`${flag} needs a header name or a 1-based index`);
  if (!/^\d+$/.test(value)) return value;
  const index = Number(value);
  if (index < 1 || !Number.isSafeInteger(index))
    throw new UsageError(`${flag} ${value}: a column index counts from 1`);
  return index;
}
