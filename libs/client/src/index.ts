// @verity/client: the reference client of the Verity API (Node ≥ 20, no dependencies).
export { Verity, DEFAULT_BASE_URL, DEFAULT_TIMEOUT_MS } from './verity';
export type { VerityOptions, PhoneOptions, VerifyInput } from './verity';
export { BatchResource, DEFAULT_POLL_INTERVAL_MS, DEFAULT_WAIT_TIMEOUT_MS } from './batch';
export type {
  BatchCreateParams,
  BatchWaitOptions,
  BatchDownloadOptions,
  BatchRunParams,
  BatchListParams,
  BatchListAllParams,
  DownloadedFile,
} from './batch';
export type { BatchFile } from './upload';
export { KeysResource } from './keys';
export { FeedbackResource, type FeedbackValues } from './feedback';
export { WebhooksResource } from './webhooks';
export type { HeaderBag, WebhookVerifyOptions } from './webhooks';
export { DEFAULT_MAX_RETRIES, retryDelayMs } from './retry';
export type { RetryEvent } from './retry';
export {
  VerityClientError,
  VerityApiError,
  ValidationError,
  UnauthorizedError,
  InsufficientCreditsError,
  ForbiddenError,
  NotFoundError,
  GoneError,
  RequestTimeoutError,
  PayloadTooLargeError,
  UnprocessableError,
  RateLimitedError,
  HeadersTooLargeError,
  InternalError,
  ServiceUnavailableError,
  VerityConnectionError,
  BatchFailedError,
  BatchTimeoutError,
  WebhookSignatureError,
} from './errors';
export type {
  BatchJob,
  BatchJobList,
  BatchJobError,
  BatchResultFields,
  BatchErrorCode,
  BatchListStatus,
  BatchStatus,
  BatchType,
  EmailResult,
  PhoneResult,
  HlrResult,
  IpResult,
  VerifyResult,
  ExplainedVerifyResult,
  ExplainedReason,
  FeedbackOutcome,
  FeedbackResult,
  FeedbackStats,
  ReasonStats,
  ReliabilityBand,
  RiskLevelStats,
  ValueHistoryView,
  VerifyHistoryView,
  PingResponse,
  ApiKey,
  IssuedApiKey,
  KeyMode,
  Deliverability,
  LineType,
  RiskLevel,
} from '@verity/contracts/wire';
