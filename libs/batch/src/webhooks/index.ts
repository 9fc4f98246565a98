export { forbiddenAddressReason, type ForbiddenReason } from './address.policy';
// The signature scheme is part of the public contract (the client SDK verifies with it).
export {
  WEBHOOK_SIGNATURE_HEADER,
  signWebhook,
  verifyWebhook,
  type WebhookVerdict,
} from '@verity/contracts';
export { bareHost, validateWebhookUrl } from './webhook.url';
export {
  WebhookDeliveryError,
  deliverWebhook,
  type DeliverWebhookOptions,
  type WebhookDelivery,
  type WebhookFailure,
  type WebhookResolver,
} from './webhook.sender';
export { WEBHOOK_MAX_DELAY_MS, webhookRetryDelayMs } from './webhook.retry';
export { WebhookDeliveryRepository, type WebhookAttempt } from './webhook-delivery.repository';
export { enqueueWebhook, type WebhookPayload } from './webhook.queue';
export { webhookTestEvent, type WebhookTestEvent } from './webhook.test-event';
