import type { z } from 'zod';
import {
  adminAddCreditsRequest,
  adminCreateAccountRequest,
  batchCreateForm,
  createKeyRequest,
  emailValidateRequest,
  ipIntelRequest,
  phoneValidateRequest,
  verifyRequest,
} from './requests';
import {
  accountCreditsSchema,
  apiKeyListSchema,
  apiKeySchema,
  batchJobErrorSchema,
  batchJobListSchema,
  batchJobSchema,
  batchJobSummarySchema,
  batchTypeSchema,
  createdAccountSchema,
  emailResultSchema,
  errorDetailSchema,
  errorSchema,
  fraudReasonSchema,
  hlrResultSchema,
  ipListEvidenceSchema,
  ipResultSchema,
  issuedApiKeySchema,
  phoneResultSchema,
  pingAccountSchema,
  pingKeySchema,
  pingResponseSchema,
  verifyResultSchema,
} from './responses';
import {
  feedbackRequest,
  feedbackResultSchema,
  feedbackStatsSchema,
  valueHistorySchema,
  verifyHistorySchema,
} from './feedback.schemas';
import { mailboxEvidenceSchema } from './mailbox.schema';

// The names the OpenAPI document (/v1/openapi.json, components.schemas) gives the wire shapes:
// the API's resource names, so generated clients get types a person would
// write. Requests are described as the server reads them, responses as it writes them.

/** Request bodies (JSON, and the batch upload's multipart form) by component name. */
export const REQUEST_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  EmailValidateRequest: emailValidateRequest,
  PhoneValidateRequest: phoneValidateRequest,
  IpIntelRequest: ipIntelRequest,
  VerifyRequest: verifyRequest,
  CreateKeyRequest: createKeyRequest,
  CreateAccountRequest: adminCreateAccountRequest,
  AddCreditsRequest: adminAddCreditsRequest,
  BatchCreateForm: batchCreateForm,
  FeedbackRequest: feedbackRequest,
};

/** Response bodies and the shapes nested in them, by component name. */
export const RESPONSE_COMPONENTS: Readonly<Record<string, z.ZodType>> = {
  EmailResult: emailResultSchema,
  MailboxEvidence: mailboxEvidenceSchema,
  PhoneResult: phoneResultSchema,
  HlrResult: hlrResultSchema,
  IpResult: ipResultSchema,
  IpListEvidence: ipListEvidenceSchema,
  VerifyResult: verifyResultSchema,
  FraudReason: fraudReasonSchema,
  BatchJob: batchJobSchema,
  BatchJobError: batchJobErrorSchema,
  BatchJobSummary: batchJobSummarySchema,
  BatchJobList: batchJobListSchema,
  BatchType: batchTypeSchema,
  PingResponse: pingResponseSchema,
  PingAccount: pingAccountSchema,
  PingKey: pingKeySchema,
  ApiKey: apiKeySchema,
  IssuedApiKey: issuedApiKeySchema,
  ApiKeyList: apiKeyListSchema,
  CreatedAccount: createdAccountSchema,
  AccountCredits: accountCreditsSchema,
  Error: errorSchema,
  ErrorDetail: errorDetailSchema,
  FeedbackResult: feedbackResultSchema,
  FeedbackStats: feedbackStatsSchema,
  VerifyHistory: verifyHistorySchema,
  ValueHistory: valueHistorySchema,
};
