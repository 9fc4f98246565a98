import { BATCH_RESULT_FIELDS, type BatchResultFields } from '@verity/contracts/wire';
import { UsageError } from './usage.error';

/** The multi-column and result-column options of `batch run`, as the SDK takes them. */
export interface UploadOptions {
  column?: string | number;
  header?: boolean;
  fields?: BatchResultFields;
}

/**
 * `--column C` (digits: a 1-based index, anything else: a header name), `--header true|false`
 * (only with `--column`) and `--fields spec|all`. Options not given stay absent, so a plain
 * upload sends only what it always sent.
 */
export function uploadOptions(values: {
  column?: string;
  header?: string;
  fields?: string;
}): UploadOptions {
  const options: UploadOptions = {};
  if (values.column !== undefined) options.column = columnOf(values.column);
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
  return options;
}

function columnOf(value: string): string | number {
  if (value.trim() === '') throw new UsageError('--column needs a header name or a 1-based index');
  if (!/^\d+$/.test(value)) return value;
  const index = Number(value);
  if (index < 1 || !Number.isSafeInteger(index))
    throw new UsageError(`--column ${value}: a column index counts from 1`);
  return index;
}
