import { Global, Module, type DynamicModule } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import type { VerityMetrics } from '@verity/observability';
import { HealthRegistry } from './health/health.registry';
import { METRICS } from './tokens';

/** What every deployable shares: the validated config, the database and the metrics registry. */
export interface CoreResources {
  config: AppConfig;
  dataSource: DataSource;
  metrics: VerityMetrics | null;
}

/** Makes the process-wide resources injectable everywhere. They are created (and closed) by the caller. */
@Global()
@Module({})
export class CoreModule {
  static forRoot(resources: CoreResources): DynamicModule {
    return {
      module: CoreModule,
      providers: [
        { provide: APP_CONFIG, useValue: resources.config },
        { provide: DataSource, useValue: resources.dataSource },
        { provide: METRICS, useValue: resources.metrics },
        HealthRegistry,
      ],
      exports: [APP_CONFIG, DataSource, METRICS, HealthRegistry],
    };
  }
}
