import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AccountsModule } from '@verity/accounts';
import { BatchJobsModule } from '@verity/batch';
import { BatchPortsModule } from '@verity/ports';
import { HistoryModule } from '@verity/history';
import { CORE_CONFIG } from '@verity/config';
import { HealthController, HealthRegistry, LOGGER } from '@verity/platform';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AdminGuard } from './auth/admin.guard';
import { BatchController } from './batch/batch.controller';
import { BatchDownloadService } from './batch/batch-download.service';
import { BatchUploadService } from './batch/batch-upload.service';
import { BillingService } from './billing/billing.service';
import { CONSOLE_CONTROLLERS, CONSOLE_PROVIDERS } from './console';
import { AdminController } from './controllers/admin.controller';
import { EmailController } from './controllers/email.controller';
import { FeedbackController } from './controllers/feedback.controller';
import { IpController } from './controllers/ip.controller';
import { KeysController } from './controllers/keys.controller';
import { PhoneController } from './controllers/phone.controller';
import { PingController } from './controllers/ping.controller';
import { VerifyController } from './controllers/verify.controller';
import { AllErrorsFilter } from './http/all-errors.filter';
import { ApiMetrics } from './metrics/api-metrics';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import type { RateLimitStore } from './rate-limit/rate-limit.store';
import { AUTH_RATE_LIMIT_STORE, RATE_LIMIT_STORE } from './rate-limit/rate-limit.tokens';
import { createAuthRateLimitStore, createKeyRateLimitStore } from './rate-limit/rate-limit.factory';
import { RATE_LIMIT_CHECK } from './api.readiness';

/** The public HTTP API. Expects CoreModule and EnginesModule from the composition root. */
@Module({
  imports: [AccountsModule, BatchPortsModule.forRoot(), BatchJobsModule, HistoryModule],
  controllers: [
    EmailController,
    PhoneController,
    IpController,
    VerifyController,
    FeedbackController,
    PingController,
    KeysController,
    AdminController,
    HealthController,
    BatchController,
    ...CONSOLE_CONTROLLERS,
  ],
  providers: [
    { provide: APP_FILTER, useClass: AllErrorsFilter },
    {
      provide: RATE_LIMIT_STORE,
      useFactory: createKeyRateLimitStore,
      inject: [CORE_CONFIG, { token: LOGGER, optional: true }],
    },
    {
      provide: AUTH_RATE_LIMIT_STORE,
      useFactory: createAuthRateLimitStore,
      inject: [CORE_CONFIG, { token: LOGGER, optional: true }],
    },
    ApiKeyGuard,
    AdminGuard,
    RateLimitGuard,
    BillingService,
    ApiMetrics,
    BatchUploadService,
    BatchDownloadService,
    ...CONSOLE_PROVIDERS,
  ],
})
export class ApiModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly rateLimits: RateLimitStore,
    @Inject(AUTH_RATE_LIMIT_STORE) private readonly authLimits: RateLimitStore,
    private readonly health: HealthRegistry,
  ) {}

  onModuleInit(): void {
    this.health.register(RATE_LIMIT_CHECK, async () => {
      await this.rateLimits.ping();
      return { ok: true };
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rateLimits.close();
    await this.authLimits.close();
  }
}
