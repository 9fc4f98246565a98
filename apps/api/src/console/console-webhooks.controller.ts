import { Body, Controller, HttpCode, Inject, Param, Req, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AccountsService } from '@verity/accounts';
import { WebhookDeliveryRepository } from '@verity/batch';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type {
  ConsoleWebhooks,
  WebhookDelivery,
  WebhookResend,
  WebhookSecret,
  WebhookTestRequest,
} from '@verity/contracts';
import { ConsoleSendLimit } from './console-send-limit';
import { ConsoleWebhookEvents } from './console-webhook-events';
import { ConsoleRoute, CONSOLE_CONTROLLER_PATH } from './console-route';
import { ConsoleSessionGuard } from './console-session.guard';
import { NoStore } from '../http/no-store';
import { ZodBodyPipe } from '../http/zod-body.pipe';

/** The URL's shape and address are checked by the webhook address policy. */
const webhookTestRequest = z.object({ url: z.string() }) satisfies z.ZodType<WebhookTestRequest>;

/** Webhook delivery attempts of the account's jobs, test events, resends and the signing secret. */
@ApiExcludeController()
@Controller(CONSOLE_CONTROLLER_PATH)
@UseGuards(ConsoleSessionGuard)
export class ConsoleWebhooksController {
  constructor(
    private readonly deliveries: WebhookDeliveryRepository,
    private readonly accounts: AccountsService,
    private readonly events: ConsoleWebhookEvents,
    private readonly sends: ConsoleSendLimit,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
  ) {}

  @ConsoleRoute('webhooks')
  async list(@Req() request: FastifyRequest): Promise<ConsoleWebhooks> {
    return {
      // WEBHOOK_SECRET set by the operator signs every account's webhooks instead.
      instance_secret: this.config.WEBHOOK_SECRET !== undefined,
      data: await this.deliveries.listForAccount(request.principal!.accountId, 100),
    };
  }

  /** POST, not GET: revealing a secret is an action, CSRF-checked and never cached. */
  @ConsoleRoute('revealWebhookSecret')
  @NoStore()
  @HttpCode(200)
  async reveal(@Req() request: FastifyRequest): Promise<WebhookSecret> {
    return { secret: await this.accounts.webhookSecret(request.principal!.accountId) };
  }

  @ConsoleRoute('rotateWebhookSecret')
  @NoStore()
  @HttpCode(200)
  async rotate(@Req() request: FastifyRequest): Promise<WebhookSecret> {
    return { secret: await this.accounts.rotateWebhookSecret(request.principal!.accountId) };
  }

  /** Sends a signed test event to a URL now; answers the recorded attempt. */
  @ConsoleRoute('testWebhook')
  @HttpCode(200)
  async sendTest(
    @Req() request: FastifyRequest,
    @Body(new ZodBodyPipe(webhookTestRequest)) body: WebhookTestRequest,
  ): Promise<WebhookDelivery> {
    await this.sends.take(request.principal!.accountId);
    return this.events.sendTest(request.principal!.accountId, body.url);
  }

  /** Queues a job's webhook again; the attempt appears in the list once made. */
  @ConsoleRoute('resendWebhook')
  @HttpCode(202)
  async resend(@Req() request: FastifyRequest, @Param('id') id: string): Promise<WebhookResend> {
    await this.sends.take(request.principal!.accountId);
    return this.events.resend(request.principal!.accountId, id);
  }
}
