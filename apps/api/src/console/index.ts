import { ConsoleAccountController } from './console-account.controller';
import { ConsoleAuthController } from './console-auth.controller';
import { ConsoleBatchController } from './console-batch.controller';
import { ConsoleFeedbackController } from './console-feedback.controller';
import { ConsoleKeysController } from './console-keys.controller';
import { ConsolePlaygroundController } from './console-playground.controller';
import { ConsoleSessionGuard } from './console-session.guard';
import { ConsoleSessions } from './console-sessions';
import { ConsoleWebhookEvents } from './console-webhook-events';
import { ConsoleWebhooksController } from './console-webhooks.controller';
import { ConsoleSendLimit } from './console-send-limit';
import { DeviceCookies } from './device-cookie';
import { LoginThrottle } from './login-throttle';

/** The console's JSON API under /console/api, hosted by ApiModule (it shares its providers). */
export const CONSOLE_CONTROLLERS = [
  ConsoleAuthController,
  ConsoleAccountController,
  ConsoleKeysController,
  ConsoleBatchController,
  ConsoleWebhooksController,
  ConsolePlaygroundController,
  ConsoleFeedbackController,
];
export const CONSOLE_PROVIDERS = [
  ConsoleSessions,
  LoginThrottle,
  DeviceCookies,
  ConsoleSendLimit,
  ConsoleSessionGuard,
  ConsoleWebhookEvents,
];
