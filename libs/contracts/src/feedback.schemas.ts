import { z } from 'zod';
import { check, type Same } from './same-type';
import { KEY_MODES, type ValueHistoryView, type VerifyHistoryView } from './account';
import { RISK_LEVELS } from './results';
import { emailValidateRequest, ipIntelRequest, phoneValidateRequest } from './requests';
import {
  FEEDBACK_OUTCOMES,
  HISTORY_VALUES,
  type FeedbackResult,
  type FeedbackStats,
  type ReasonStats,
  type ReliabilityBand,
  type RiskLevelStats,
} from './feedback';

// Schemas of POST /v1/feedback, GET /v1/feedback/stats and verify's `history` (docs/history.md).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const feedbackRequest = z
  .object({
    request_id: z
      .string()
      .regex(UUID, 'must be the request_id of a verify answer')
      .optional()
      .describe('The request_id of a POST /v1/verify answer of this account'),
    email: emailValidateRequest.shape.email.optional(),
    phone: phoneValidateRequest.shape.phone.optional(),
    ip: ipIntelRequest.shape.ip.optional(),
    outcome: z.enum(FEEDBACK_OUTCOMES, {
      error: (issue) =>
        issue.input === undefined ? 'is required' : 'must be "fraud" or "legitimate"',
    }),
  })
  .refine(
    (v) =>
      v.request_id !== undefined ||
      v.email !== undefined ||
      v.phone !== undefined ||
      v.ip !== undefined,
    { message: 'give request_id, or at least one of email, phone and ip' },
  )
  .refine(
    (v) =>
      v.request_id === undefined ||
      (v.email === undefined && v.phone === undefined && v.ip === undefined),
    { message: 'give request_id or values (email, phone, ip), not both' },
  );
export type FeedbackRequestBody = z.infer<typeof feedbackRequest>;

export const feedbackResultSchema = z.object({
  outcome: z.enum(FEEDBACK_OUTCOMES),
  request_id: z
    .string()
    .nullable()
    .describe('The verify call reported; null for a report by value'),
  values: z
    .array(z.enum(HISTORY_VALUES))
    .describe('The values whose later scores the report moves (subnet: the /24 or /64 of the IP)'),
  credits_used: z.literal(0).describe('Always 0: feedback is free'),
});

const count = z.number().int().min(0);

export const valueHistorySchema = z.object({
  linked: z
    .object({ '1h': count, '24h': count, '30d': count })
    .nullable()
    .describe('Distinct emails seen with the value, this call included; null for an email'),
  first_seen: z.string().describe('When the account first sent the value (ISO 8601)'),
  calls: count.describe('Verify calls with the value, this one included'),
  reported: z
    .object({ fraud: z.number(), legitimate: z.number() })
    .describe('Report weights now: 1 when made, halving every half-life'),
});

export const verifyHistorySchema = z.object({
  email: valueHistorySchema.optional(),
  phone: valueHistorySchema.optional(),
  ip: valueHistorySchema.optional(),
  subnet: valueHistorySchema.optional().describe("The IP address's /24 (IPv6: /64)"),
});

const rate = z.number().min(0).max(1);

export const riskLevelStatsSchema = z.object({
  risk: z.enum(RISK_LEVELS),
  calls: count,
  fraud: count,
  legitimate: count,
});

export const reliabilityBandSchema = z.object({
  min_score: count,
  max_score: count,
  calls: count,
  fraud: count,
  mean_score: z.number().nullable(),
  fraud_rate: rate.nullable().describe('fraud ÷ calls; null when the band has no calls'),
});

export const reasonStatsSchema = z.object({
  code: z.string(),
  direction: z.enum(['risk', 'credit']),
  calls: count,
  fraud: count,
  precision: rate.describe('Share of its calls whose outcome matched its direction'),
});

export const feedbackStatsSchema = z.object({
  mode: z.enum(KEY_MODES),
  retention_days: count,
  labelled_calls: count,
  fraud: count,
  legitimate: count,
  auc: rate
    .nullable()
    .describe('Chance a fraud call scored above a legitimate one (ties half); null without both'),
  enough_labels: z.boolean().describe('Each outcome has the labels docs/history.md asks for'),
  risk_levels: z.array(riskLevelStatsSchema),
  reliability: z.array(reliabilityBandSchema).describe('fraud_score bands 0–9, 10–19, …, 90–100'),
  reasons: z.array(reasonStatsSchema).describe('Most frequent first'),
});

check<Same<z.infer<typeof feedbackResultSchema>, FeedbackResult>>(true);
check<Same<z.infer<typeof valueHistorySchema>, ValueHistoryView>>(true);
check<Same<z.infer<typeof verifyHistorySchema>, VerifyHistoryView>>(true);
check<Same<z.infer<typeof riskLevelStatsSchema>, RiskLevelStats>>(true);
check<Same<z.infer<typeof reliabilityBandSchema>, ReliabilityBand>>(true);
check<Same<z.infer<typeof reasonStatsSchema>, ReasonStats>>(true);
check<Same<z.infer<typeof feedbackStatsSchema>, FeedbackStats>>(true);
