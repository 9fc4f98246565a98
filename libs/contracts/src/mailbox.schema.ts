import { z } from 'zod';
import { check, type Same } from './same-type';
import { MAILBOX_REASONS, MAILBOX_VERDICTS, type MailboxEvidence } from './mailbox';

/** `mailbox` of `POST /v1/email/validate?explain=true` (MailboxEvidence). */
export const mailboxEvidenceSchema = z.object({
  checked: z
    .boolean()
    .describe(
      'A mail server was asked about this address (now, or earlier when source is cached); false: the mailbox was not checked',
    ),
  verdict: z
    .enum(MAILBOX_VERDICTS)
    .nullable()
    .describe('What the mail server answer says about the mailbox; null when none was asked'),
  reason: z.enum(MAILBOX_REASONS).describe('Why (docs/models/email.md, "SMTP probe")'),
  detail: z.string().describe('The same in one sentence'),
  host: z.string().nullable().describe('The mail host asked'),
  reply_code: z.number().int().nullable().describe('SMTP reply code of the deciding answer'),
  enhanced_status: z
    .string()
    .nullable()
    .describe('Its enhanced status code (RFC 3463), e.g. 5.1.1'),
  catch_all: z.boolean().nullable().describe('The domain accepts any recipient; null: unknown'),
  source: z
    .enum(['live', 'cached'])
    .nullable()
    .describe('live: asked for this answer; cached: an earlier answer still fresh'),
  duration_ms: z.number().int().nullable().describe('Time spent asking, in milliseconds'),
});

check<Same<z.infer<typeof mailboxEvidenceSchema>, MailboxEvidence>>(true);
