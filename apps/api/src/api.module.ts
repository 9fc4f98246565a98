import { Inject, Module, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { AccountsModule } from '@verity/accounts';
import { BatchJobsModule, BatchPortsModule } from '@verity/batch';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { HealthController, HealthRegistry } from '@verity/platform';
import { ApiKeyGuard } from './auth/api-key.guard';
import { AdminGuard } from './auth/admin.guard';
import { BatchController } from './batch/batch.controller';
import { BatchDownloadService } from './batch/batch-download.service';
import { BatchUploadService } from './batch/batch-upload.service';
import { BillingService } from './billing/billing.service';
import { AdminController } from './controllers/admin.controller';
import { EmailController } from './controllers/email.controller';
import { IpController } from './controllers/ip.controller';
import { KeysController } from './controllers/keys.controller';
import { PhoneController } from './controllers/phone.controller';
import { PingController } from './controllers/ping.controller';
import { VerifyController } from './controllers/verify.controller';
import { AllErrorsFilter } from './http/all-errors.filter';
import { ApiMetrics } from './metrics/api-metrics';
import { MemoryRateLimitStore } from './rate-limit/memory.rate-limit-store';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import type { RateLimitStore } from './rate-limit/rate-limit.store';
import { RATE_LIMIT_STORE } from './rate-limit/rate-limit.tokens';
import { RedisRateLimitStore } from './rate-limit/redis.rate-limit-store';

function createRateLimitStore(config: AppConfig): RateLimitStore {
  const policy = { ratePerSecond: config.RATE_LIMIT_PER_SECOND, burst: config.RATE_LIMIT_BURST };
  return config.REDIS_URL
    ? new RedisRateLimitStore(config.REDIS_URL, policy)
    : new MemoryRateLimitStore(policy);
}

/** The public HTTP API. Expects CoreModule and EnginesModule from the composition root. */
@Module({
  imports: [AccountsModule, BatchPortsModule.forRoot(), BatchJobsModule],
  controllers: [
    EmailController,
    PhoneController,
    IpController,
    VerifyController,
    PingController,
    KeysController,
    AdminController,
    HealthController,
    BatchController,
  ],
  providers: [
    { provide: APP_FILTER, useClass: AllErrorsFilter },
    { provide: RATE_LIMIT_STORE, useFactory: createRateLimitStore, inject: [APP_CONFIG] },
    ApiKeyGuard,
    AdminGuard,
    RateLimitGuard,
    BillingService,
    ApiMetrics,
    BatchUploadService,
    BatchDownloadService,
  ],
})
export class ApiModule implements OnModuleInit, OnApplicationShutdown {
  constructor(
    @Inject(RATE_LIMIT_STORE) private readonly rateLimits: RateLimitStore,
    private readonly health: HealthRegistry,
  ) {}

  onModuleInit(): void {
    this.health.register('rate_limit_store', async () => {
      await this.rateLimits.ping();
      return { ok: true };
    });
  }

  async onApplicationShutdown(): Promise<void> {
    await this.rateLimits.close();
  }
}
