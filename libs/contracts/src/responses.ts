import { z } from 'zod';
import { check, type Same } from './same-type';
import { DELIVERABILITY, HLR_STATUSES, IP_LIST_KINDS, LINE_TYPES, RISK_LEVELS } from './results';
import type { EmailResult, IpListEvidence, IpResult, PhoneResult, VerifyResult } from './results';
import { verifyHistorySchema } from './feedback.schemas';
import {
  ALL_BATCH_VERDICTS,
  BATCH_ERROR_CODES,
  BATCH_STATUSES,
  BATCH_TYPES,
  type BatchJob,
  type BatchJobError,
  type BatchJobSummary,
  type BatchVerdict,
} from './batch';
import {
  KEY_MODES,
  type ApiKey,
  type ExplainedReason,
  type IssuedApiKey,
  type PingResponse,
} from './account';
import { mailboxEvidenceSchema } from './mailbox.schema';

// JSON schemas of the responses, used for the OpenAPI document (each under the name
// `openapi-components.ts` gives it). The `check`s below make the compiler fail if a schema
// drifts from the TypeScript result types.

const int = (description: string) => z.number().int().describe(description);
const score = (description: string) => z.number().int().min(0).max(100).describe(description);

export const emailResultSchema = z.object({
  input: z.string().describe('The original input value'),
  valid_syntax: z
    .boolean()
    .describe(
      'Address syntax is valid (RFC 5321). Address literals (user@[192.0.2.1]) are refused by policy: they skip DNS, so no mail host can be checked, and probing one would let a caller aim Verity at any IP address.',
    ),
  mx_found: z.boolean().describe('The domain has valid MX records'),
  disposable: z.boolean().describe('Known disposable or throwaway provider'),
  role_based: z.boolean().describe('Role address (for example an info or support mailbox)'),
  free_provider: z.boolean().describe('Free consumer provider'),
  did_you_mean: z.string().nullable().describe('Typo suggestion (a corrected address) or null'),
  deliverability: z.enum(DELIVERABILITY),
  score: score('0 to 100 quality score, higher is better'),
  credits_used: int('Always 1'),
  mailbox: mailboxEvidenceSchema
    .optional()
    .describe(
      'Only with POST /v1/email/validate?explain=true: the SMTP evidence behind deliverability, or why the mailbox was not checked',
    ),
});

export const hlrResultSchema = z.object({
  status: z.enum(HLR_STATUSES),
  ported: z.boolean().nullable().describe('Number has been ported'),
  roaming: z.boolean().nullable().describe('Subscriber is roaming'),
});

export const phoneResultSchema = z.object({
  input: z.string(),
  valid: z.boolean().describe('Number is valid and parseable'),
  e164: z.string().nullable(),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2 country code'),
  line_type: z.enum(LINE_TYPES),
  carrier: z.string().nullable().describe('Range holder (original carrier) or the HLR network'),
  hlr: hlrResultSchema
    .nullable()
    .describe('Live HLR result; always present, null when hlr was not requested'),
  score: score('0 to 100 quality score'),
  credits_used: int('1 (offline) or 5 (HLR)'),
});

export const ipListEvidenceSchema = z.object({
  kind: z.enum(IP_LIST_KINDS),
  source: z.string(),
  status: z.enum(['loaded', 'stale', 'missing', 'error']),
  age_seconds: z.number().int().nullable(),
  matched: z.boolean(),
});

export const ipResultSchema = z.object({
  input: z.string(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  asn: z.number().int().nullable(),
  asn_org: z.string().nullable(),
  vpn: z.boolean(),
  proxy: z.boolean(),
  tor: z.boolean(),
  datacenter: z.boolean(),
  abuse_score: score('0 to 100 abuse risk, higher means more risk'),
  credits_used: int('Always 1'),
  lists: z
    .array(ipListEvidenceSchema)
    .optional()
    .describe(
      'Only with ?explain=true: every open-data list behind the flags, its state and age, and whether it holds the address',
    ),
});

export const fraudReasonSchema = z.object({
  code: z.string(),
  description: z.string(),
  points: z.number(),
  signal: z.enum(['email', 'phone', 'ip', 'cross']),
});

export const verifyResultSchema = z.object({
  fraud_score: score('0 to 100 combined fraud risk, higher means more risk'),
  risk: z.enum(RISK_LEVELS),
  email: emailResultSchema.optional(),
  phone: phoneResultSchema.optional(),
  ip: ipResultSchema.optional(),
  credits_used: int('Always 3'),
  request_id: z
    .string()
    .describe(
      'Added in v1: the id of this call; report how it turned out with POST /v1/feedback (docs/history.md)',
    ),
  fraud_base: z
    .number()
    .int()
    .optional()
    .describe('Only with ?explain=true: the score before reasons'),
  reasons: z
    .array(fraudReasonSchema)
    .optional()
    .describe('Only with ?explain=true: fraud_score = clamp(0, 100, fraud_base + sum of points)'),
  history: verifyHistorySchema
    .optional()
    .describe(
      "Only with ?explain=true: what the account has seen of each value and reported about it (the history rules' figures)",
    ),
});

export const batchTypeSchema = z.enum(BATCH_TYPES).describe('What every row of the CSV holds');

export const batchJobErrorSchema = z.object({
  code: z.enum(BATCH_ERROR_CODES),
  message: z.string(),
});

const VERDICT_MEANING: Record<BatchVerdict, string> = {
  deliverable: 'email: rows whose deliverability is deliverable',
  risky: 'email: rows whose deliverability is risky',
  undeliverable:
    'email: rows whose deliverability is undeliverable (a row that is not an address included)',
  unknown: 'email: rows whose deliverability is unknown',
  valid: 'phone: valid numbers',
  invalid: 'phone, ip: rows that are not a valid number (phone) or not an address (ip)',
  vpn: 'ip: addresses flagged vpn',
  proxy: 'ip: addresses flagged proxy',
  tor: 'ip: addresses flagged tor',
  datacenter: 'ip: addresses flagged datacenter',
  clean: 'ip: addresses with none of the four flags',
};

export const batchJobSummarySchema = z
  .object(
    Object.fromEntries(
      ALL_BATCH_VERDICTS.map((v) => [v, z.number().int().optional().describe(VERDICT_MEANING[v])]),
    ) as { [V in BatchVerdict]: z.ZodOptional<z.ZodNumber> },
  )
  .describe(
    "The scored rows counted by verdict, every verdict of the job's type present (0 included): email deliverable, risky, undeliverable, unknown; phone valid, invalid; ip vpn, proxy, tor, datacenter (an address with several flags counts under each), clean, invalid",
  );

export const batchJobSchema = z.object({
  id: z.string(),
  status: z.enum(BATCH_STATUSES),
  type: batchTypeSchema,
  total_rows: z.number().int(),
  processed_rows: z.number().int(),
  result_url: z
    .string()
    .nullable()
    .describe('Signed download of the result CSV once done, else null'),
  partial_result_url: z
    .string()
    .nullable()
    .describe(
      "Added in v1: when status is failed (cancelled or any other failure) after rows were scored, a signed download of those rows (input order, the result file's columns), else null; the rows it holds are the ones charged (processed_rows)",
    ),
  created_at: z.string().describe('ISO 8601 timestamp'),
  file_name: z
    .string()
    .nullable()
    .describe(
      "Added in v1: the uploaded file's name (base name, control characters removed, at most 255 characters); null when the upload named none",
    ),
  error: batchJobErrorSchema
    .optional()
    .describe(
      'Added in v1 (fields are only added): present only when status is failed; why the job failed, in the shape of an error body; the message states the rows and credits refunded (every unprocessed row is)',
    ),
  country_hint: z
    .string()
    .optional()
    .describe(
      "Added in v1, phone jobs: the job's `country_hint` (ISO 3166-1 alpha-2, upper case); present only when the job was created with it",
    ),
  country_column: z
    .number()
    .int()
    .optional()
    .describe(
      "Added in v1, phone jobs: the job's `country_column` as resolved against the file, a 1-based index; present only when the job was created with it",
    ),
  summary: batchJobSummarySchema
    .nullable()
    .describe(
      'Added in v1: the scored rows counted by verdict, once the job is done (or failed with scored rows); null before. Download only some verdicts with only= on result_url (docs/batch.md, "Summary")',
    ),
});

export const batchJobListSchema = z.object({
  data: z.array(batchJobSchema).describe('Newest first'),
  next_cursor: z
    .string()
    .nullable()
    .describe('Pass as cursor for the next page; null on the last page'),
});

export const errorDetailSchema = z.object({
  code: z
    .string()
    .describe(
      'Machine-readable: validation_error, unauthorized, insufficient_credits, forbidden, not_found, request_timeout, gone, payload_too_large, unprocessable, rate_limited, headers_too_large, internal_error, service_unavailable',
    ),
  message: z.string().describe('Human-readable'),
});

/** The body of every non-2xx answer. */
export const errorSchema = z.object({ error: errorDetailSchema });

export const pingAccountSchema = z.object({ id: z.string(), name: z.string() });
export const pingKeySchema = z.object({ id: z.string(), name: z.string() });

export const pingResponseSchema = z.object({
  account: pingAccountSchema,
  key: pingKeySchema,
  credits_remaining: z.number().int(),
  credits_used: z.literal(0).describe('Always 0: ping is free'),
});

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  mode: z
    .enum(KEY_MODES)
    .describe(
      '`live`: charged, looks things up on the network. `test` (`vrt_test_…`): free, offline, magic inputs (docs/test-mode.md)',
    ),
  hint: z
    .string()
    .describe('The prefix and the first 4 of the 24 random characters, e.g. vrt_live_Ab3d…'),
  created_at: z.string(),
  rotated_at: z.string().nullable(),
  last_used_at: z
    .string()
    .nullable()
    .describe('Last authenticated call; recorded about once a minute, so it may lag by a minute'),
});
export const issuedApiKeySchema = apiKeySchema.extend({
  key: z.string().describe('The key value; shown only in this response'),
});

/** GET /v1/keys. */
export const apiKeyListSchema = z.object({ data: z.array(apiKeySchema) });

/** POST /admin/accounts. */
export const createdAccountSchema = z.object({
  account_id: z.string(),
  api_key: z.string(),
  sign_in_url: z.string().optional().describe('With owner_email: one use, short expiry'),
});

/** POST /admin/accounts/{id}/credits: the balance the account's keys now see. */
export const accountCreditsSchema = z.object({
  account_id: z.string(),
  credits_balance: z.number().int(),
});

check<Same<Omit<z.infer<typeof emailResultSchema>, 'mailbox'>, EmailResult>>(true);
check<Same<z.infer<typeof phoneResultSchema>, PhoneResult>>(true);
check<Same<Omit<z.infer<typeof ipResultSchema>, 'lists'>, IpResult>>(true);
check<Same<NonNullable<z.infer<typeof ipResultSchema>['lists']>[number], IpListEvidence>>(true);
check<
  Same<Omit<z.infer<typeof verifyResultSchema>, 'reasons' | 'fraud_base' | 'history'>, VerifyResult>
>(true);
check<Same<z.infer<typeof batchJobSchema>, BatchJob>>(true);
check<Same<z.infer<typeof batchJobErrorSchema>, BatchJobError>>(true);
check<Same<z.infer<typeof batchJobSummarySchema>, BatchJobSummary>>(true);
// Every verdict is a key of the summary: a new one does not compile until ALL_BATCH_VERDICTS places it.
check<Same<(typeof ALL_BATCH_VERDICTS)[number], BatchVerdict>>(true);
check<Same<z.infer<typeof pingResponseSchema>, PingResponse>>(true);
check<Same<z.infer<typeof apiKeySchema>, ApiKey>>(true);
check<Same<z.infer<typeof issuedApiKeySchema>, IssuedApiKey>>(true);
check<Same<z.infer<typeof fraudReasonSchema>, ExplainedReason>>(true);
