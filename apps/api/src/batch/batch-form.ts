import { createHash } from 'node:crypto';
import { columnOf, tableFormat, type TableColumn, type TableFormat } from '@verity/batch';
import { VerityError } from '@verity/common';
import { BATCH_RESULT_FIELDS, type BatchResultFields, type BatchType } from '@verity/contracts';
import { parseCountryHint } from '@verity/validation';

/**
 * The optional form fields of POST /v1/batch that shape the file and its result
 * (docs/batch.md, "Multi-column files", "Result columns"), as sent (trimmed).
 */
export interface FormatFields {
  column?: string;
  header?: string;
  fields?: string;
  /** The SMTP mailbox probe for this job (docs/models/email.md, "SMTP probe"). */
  smtp?: string;
  /** A phone job's country for every row (docs/batch.md, "Phone numbers and their country"). */
  country_hint?: string;
  /** A phone job's column of each row's country. */
  country_column?: string;
}

const FORMAT_FIELDS: ReadonlySet<string> = new Set<keyof FormatFields>([
  'column',
  'header',
  'fields',
  'smtp',
  'country_hint',
  'country_column',
]);

function isFormatField(name: string): name is keyof FormatFields {
  return FORMAT_FIELDS.has(name);
}

/** Reads one of the format fields into `into`; false for a field of another name. */
export function readFormatField(into: FormatFields, name: string, value: string): boolean {
  if (!isFormatField(name)) return false;
  into[name] = value.trim();
  return true;
}

/** A phone job's country fields as checked; the column is resolved once the file is read. */
export interface CountryFields {
  /** `country_hint`, upper case; null when absent (or sent empty). */
  hint: string | null;
  /** `country_column` as named; null when absent (or sent empty). */
  column: TableColumn | null;
}

/**
 * `country_hint` and `country_column` (docs/batch.md, "Phone numbers and their country"). 400
 * for a hint that is not ISO 3166-1 alpha-2 (the single call's message), for a column that is
 * neither a name nor a 1-based index, for either on a job that is not a phone job, for
 * `country_column` without `column` (once every field is in: `final`) and for a name with
 * `header=false`. A field sent empty counts as absent.
 */
export function checkCountry(
  form: FormatFields,
  type: BatchType | undefined,
  final: boolean,
): CountryFields {
  const hintText = form.country_hint === '' ? undefined : form.country_hint;
  const columnText = form.country_column === '' ? undefined : form.country_column;
  if (hintText === undefined && columnText === undefined) return { hint: null, column: null };
  if (type !== undefined && type !== 'phone') {
    const sent = hintText === undefined ? 'country_column' : 'country_hint';
    throw new VerityError(
      'validation_error',
      `${sent} applies to phone jobs only (this job's type is ${type})`,
    );
  }
  if (hintText !== undefined) parseCountryHint(hintText);
  const hint = hintText === undefined ? null : hintText.toUpperCase();
  if (columnText === undefined) return { hint, column: null };
  const column = columnOf(columnText, 'country_column');
  if (final && form.column === undefined) {
    throw new VerityError(
      'validation_error',
      'country_column goes with column: a single-column file has no other column (send country_hint for all its rows)',
    );
  }
  if ('name' in column && form.header === 'false') {
    throw new VerityError('validation_error', 'a country_column name needs header=true');
  }
  return { hint, column };
}

/**
 * Whether the job asks mail servers (`smtp`): `true` or `false` as sent, else the server's
 * default (EMAIL_SMTP_PROBE=on). 400 for another value, for `true` on a server where the probe
 * is off, and for `true` on a phone or ip job.
 */
export function checkSmtp(
  value: string | undefined,
  type: BatchType | undefined,
  probe: 'off' | 'on' | 'per_job',
): boolean {
  if (value === undefined) return probe === 'on' && (type === undefined || type === 'email');
  if (value !== 'true' && value !== 'false') {
    throw new VerityError('validation_error', 'smtp must be true or false');
  }
  if (value === 'false') return false;
  if (type !== undefined && type !== 'email') {
    throw new VerityError('validation_error', 'smtp=true applies to email jobs only');
  }
  if (probe === 'off') {
    throw new VerityError(
      'validation_error',
      'smtp=true is not available: the SMTP probe is off on this server (EMAIL_SMTP_PROBE)',
    );
  }
  return true;
}

function isResultFields(value: string): value is BatchResultFields {
  return (BATCH_RESULT_FIELDS as readonly string[]).includes(value);
}

/** The field set `fields` names (400 otherwise); `spec` when absent. */
export function checkResultFields(value: string | undefined): BatchResultFields {
  if (value === undefined) return 'spec';
  if (!isResultFields(value))
    throw new VerityError('validation_error', 'fields must be spec or all');
  return value;
}

/**
 * The multi-column format `column` and `header` describe (400 for a bad value), or null for the
 * spec's single-column file. `final`: every field has arrived, so `header` without `column`
 * is refused; before that, `column` may still come.
 */
export function checkTableFormat(form: FormatFields, final: boolean): TableFormat | null {
  if (form.column === undefined) {
    if (final && form.header !== undefined) {
      throw new VerityError('validation_error', 'header is only allowed together with column');
    }
    return null;
  }
  return tableFormat(form.column, form.header);
}

/**
 * The fingerprint an Idempotency-Key replay must match: type, webhook_url, the file's SHA-256,
 * the format fields as sent when any is (`fields=spec` is the default, so it counts as
 * absent), `smtp` when sent, and the country fields when sent. A request without them hashes
 * as it always has.
 */
export function requestHash(
  type: BatchType,
  webhookUrl: string | null,
  sha256: string,
  form: FormatFields,
): string {
  const fields = form.fields === 'spec' ? undefined : form.fields;
  const format =
    form.column === undefined && form.header === undefined && fields === undefined
      ? ''
      : `\ncolumn=${form.column ?? ''}\nheader=${form.header ?? ''}\nfields=${fields ?? ''}`;
  // Added after the others, so a request without `smtp` hashes as it always has.
  const smtp = form.smtp === undefined ? '' : `\nsmtp=${form.smtp}`;
  const country =
    form.country_hint === undefined && form.country_column === undefined
      ? ''
      : `\ncountry_hint=${form.country_hint ?? ''}\ncountry_column=${form.country_column ?? ''}`;
  return createHash('sha256')
    .update(`${type}\n${webhookUrl ?? ''}\n${sha256}${format}${smtp}${country}`)
    .digest('hex');
}
