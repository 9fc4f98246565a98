import { Global, Module, type DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { CONFIG_TOKENS, configProviders, type AppConfig } from '@verity/config';
import type { VerityMetrics } from '@verity/observability';
import { HealthRegistry } from './health/health.registry';
import { LOGGER, METRICS } from './tokens';

/**
 * What every deployable shares: the validated config (whole and by section), the database and
 * the metrics registry.
 */
export interface CoreResources {
  config: AppConfig;
  dataSource: DataSource;
  metrics: VerityMetrics | null;
  /** The process's logger, for libraries that log on their own (kafkajs, Bull, ioredis). */
  logger?: Logger;
}

/** Makes the process-wide resources injectable everywhere. They are created (and closed) by the caller. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(resources: CoreResources): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        ...configProviders(resources.config),
        { provide: DataSource, useValue: resources.dataSource },
        { provide: METRICS, useValue: resources.metrics },
        { provide: LOGGER, useValue: resources.logger ?? null },
        HealthRegistry,
      ],
      exports: [...CONFIG_TOKENS, DataSource, METRICS, LOGGER, HealthRegistry],
    };
  }
}
