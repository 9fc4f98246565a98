import { createHash } from 'node:crypto';
import { tableFormat, type TableFormat } from '@verity/batch';
import { VerityError } from '@verity/common';
import { BATCH_RESULT_FIELDS, type BatchResultFields, type BatchType } from '@verity/contracts';

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
}

/** Reads one of the format fields into `into`; false for a field of another name. */
export function readFormatField(into: FormatFields, name: string, value: string): boolean {
  if (name !== 'column' && name !== 'header' && name !== 'fields' && name !== 'smtp') return false;
  into[name] = value.trim();
  return true;
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
 * absent), and `smtp` when sent. A request without them hashes as it always has.
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
  return createHash('sha256')
    .update(`${type}\n${webhookUrl ?? ''}\n${sha256}${format}${smtp}`)
    .digest('hex');
}
