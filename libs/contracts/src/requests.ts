import { z } from 'zod';
import { check, type Same } from './same-type';
import { KEY_MODES } from './account';
import {
  BATCH_LIST_DEFAULT,
  BATCH_LIST_MAX,
  BATCH_RESULT_FIELDS,
  BATCH_LIST_STATUSES,
  BATCH_TYPES,
} from './batch';
import type {
  CreateKeyBody,
  EmailValidateRequest,
  IpIntelRequest,
  PhoneValidateRequest,
  VerifyRequest,
} from './request-bodies';

// Request bodies of the JSON endpoints. Unknown fields are ignored (forward compatible);
// `strictObject` is not used so that clients can send extra context safely.

export const emailValidateRequest = z.object({
  email: z.string().max(1024, 'must be at most 1024 characters'),
});

export const phoneValidateRequest = z.object({
  phone: z.string().max(64, 'must be at most 64 characters'),
  country_hint: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
    .optional(),
  hlr: z.boolean().optional(),
});

export const ipIntelRequest = z.object({
  ip: z.string().max(64, 'must be at most 64 characters'),
});

export const verifyRequest = z
  .object({
    email: emailValidateRequest.shape.email.optional(),
    phone: phoneValidateRequest.shape.phone.optional(),
    ip: ipIntelRequest.shape.ip.optional(),
  })
  .refine((v) => v.email !== undefined || v.phone !== undefined || v.ip !== undefined, {
    message: 'at least one of email, phone or ip is required',
  });

export const createKeyRequest = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(100, 'must be at most 100 characters'),
  mode: z.enum(KEY_MODES, { error: 'must be "live" or "test"' }).default('live'),
});
export type CreateKeyRequest = z.infer<typeof createKeyRequest>;

export const adminCreateAccountRequest = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
  credits: z.number().int('must be an integer').min(0, 'must be >= 0').max(1e12),
  owner_email: z
    .email('must be an email address')
    .max(254)
    .optional()
    .describe('Creates the console user and returns a one-time sign_in_url for it'),
});
export type AdminCreateAccountRequest = z.infer<typeof adminCreateAccountRequest>;

export const adminAddCreditsRequest = z.object({
  amount: z.number().int('must be an integer').min(1, 'must be >= 1').max(1e12),
});
export type AdminAddCreditsRequest = z.infer<typeof adminAddCreditsRequest>;

/**
 * The multipart/form-data fields of POST /v1/batch, for the OpenAPI document. The server streams
 * the parts instead of parsing them with this schema (the file never sits in memory), and answers
 * 400 validation_error for a missing or wrong type or file, or a webhook_url it refuses
 * (docs/batch.md, Webhooks).
 */
export const batchCreateForm = z.object({
  // Not BatchJob's batchTypeSchema: a named (component) enum makes OpenAPI Generator's Java client send
  // the field as a JSON part ("email" in quotes) instead of the text a form field is
  // (OpenAPI 3.0.3, Encoding Object: primitive properties are text/plain).
  type: z.enum(BATCH_TYPES).describe('What every row of the CSV holds'),
  file: z
    .file()
    .describe(
      'CSV, UTF-8. Without `column`: single-column, one value per line; a first line that is a column name (email, phone, ip, e-mail, phone_number, ip_address, …) is a header: skipped and not charged. With `column`: RFC 4180 with any number of columns (docs/batch.md, "Multi-column files")',
    ),
  webhook_url: z
    .string()
    .optional()
    .describe('http(s) URL that receives a signed POST when the job ends (docs/batch.md)'),
  column: z
    .string()
    .optional()
    .describe(
      'Added in v1: the column to validate in a multi-column file, as its header name or a 1-based index. The result keeps every input column and appends the result columns (docs/batch.md, "Multi-column files")',
    ),
  header: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'Added in v1, with `column`: whether the first line is a header (never a row, never charged). Default: true when `column` is a name; with an index, a first value that is a column name is a header',
    ),
  fields: z
    .enum(BATCH_RESULT_FIELDS)
    .optional()
    .describe(
      'Added in v1: `spec` (default) writes the standard result columns; `all` adds the fields the single-call answers carry (docs/batch.md, "Result columns")',
    ),
  smtp: z
    .enum(['true', 'false'])
    .optional()
    .describe(
      'Added in v1, email jobs: `true` asks each address\'s mail server whether the mailbox exists (SMTP RCPT, never a message), where the server allows it (400 otherwise). Slower: minutes per mail host with many addresses, plus up to the retry window for greylisting. Same credits (docs/models/email.md, "SMTP probe")',
    ),
});

/** The query of GET /v1/batch (a page of the caller's jobs, newest first). */
export const batchListQuery = z.object({
  limit: z.coerce
    .number()
    .int('must be an integer')
    .min(1, 'must be >= 1')
    .max(BATCH_LIST_MAX, `must be <= ${BATCH_LIST_MAX}`)
    .default(BATCH_LIST_DEFAULT)
    .describe(`Jobs per page, 1 to ${BATCH_LIST_MAX} (default ${BATCH_LIST_DEFAULT})`),
  cursor: z
    .string()
    .max(200)
    .optional()
    .describe('next_cursor of the previous page; absent for the first page'),
  status: z
    .enum(BATCH_LIST_STATUSES)
    .optional()
    .describe(
      'Only jobs in this state; `cancelled` (added in v1): the failed jobs the account cancelled, which `failed` lists too',
    ),
});
export type BatchListQuery = z.infer<typeof batchListQuery>;

// The schemas accept exactly the plain request types of request-bodies.ts (what a client sends)
// and, where no default fills a field in, give the server the same shape.
check<Same<z.input<typeof emailValidateRequest>, EmailValidateRequest>>(true);
check<Same<z.output<typeof emailValidateRequest>, EmailValidateRequest>>(true);
check<Same<z.input<typeof phoneValidateRequest>, PhoneValidateRequest>>(true);
check<Same<z.output<typeof phoneValidateRequest>, PhoneValidateRequest>>(true);
check<Same<z.input<typeof ipIntelRequest>, IpIntelRequest>>(true);
check<Same<z.output<typeof ipIntelRequest>, IpIntelRequest>>(true);
check<Same<z.input<typeof verifyRequest>, VerifyRequest>>(true);
check<Same<z.output<typeof verifyRequest>, VerifyRequest>>(true);
check<Same<z.input<typeof createKeyRequest>, CreateKeyBody>>(true);
