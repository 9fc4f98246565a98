import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { CORE_CONFIG, type CoreConfig, BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { Logger } from 'pino';
import type { VerityMetrics } from '@verity/observability';
import { HealthRegistry, LOGGER, METRICS } from '@verity/platform';
import { MemoryRowBus } from './adapters/memory.row-bus';
import { createBlobStore, createJobQueue, createRowBus } from './adapters/port.factory';
import type { BlobStore } from './ports/blob-store.port';
import type { JobQueue } from './ports/job-queue.port';
import type { RowBus } from './ports/row-bus.port';

/** Injection token of the {@link RowBus}. */
export const ROW_BUS = Symbol.for('verity.row-bus');
/** Injection token of the {@link JobQueue}. */
export const JOB_QUEUE = Symbol.for('verity.job-queue');
/** Injection token of the {@link BlobStore}. */
export const BLOB_STORE = Symbol.for('verity.blob-store');

/** Closes the ports on shutdown: queue first (its handlers may still publish), then bus, then blobs. */
@Injectable()
class BatchPortsShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(ROW_BUS) private readonly bus: RowBus,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await this.bus.close();
    await this.blobs.close();
  }
}

/** The readiness checks of the batch ports, by name (deployables choose which are required). */
export const BATCH_CHECKS = {
  rowBus: 'row_bus',
  jobQueue: 'job_queue',
  blobStore: 'blob_store',
} as const;

/** Readiness: /readyz reports whether the bus, the queue backend and the blob store answer. */
@Injectable()
class BatchPortsHealth implements OnModuleInit {
  constructor(
    @Inject(ROW_BUS) private readonly bus: RowBus,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    private readonly health: HealthRegistry,
  ) {}

  onModuleInit(): void {
    const check = (ping: () => Promise<void>) => async () => {
      await ping();
      return { ok: true };
    };
    this.health.register(
      BATCH_CHECKS.rowBus,
      check(() => this.bus.ping()),
    );
    this.health.register(
      BATCH_CHECKS.jobQueue,
      check(() => this.queue.ping()),
    );
    this.health.register(
      BATCH_CHECKS.blobStore,
      check(() => this.blobs.ping()),
    );
  }
}

/**
 * Provides ROW_BUS, JOB_QUEUE and BLOB_STORE, chosen from BATCH_CONFIG and CORE_CONFIG (which
 * the host module must provide). Bull queues are created by the adapter, not @nestjs/bull: the
 * backend is chosen from the injected config at runtime, while BullModule must be imported
 * statically and would open Redis connections even with JOB_QUEUE=memory.
 */
@Module({})
export class BatchPortsModule {
  static forRoot(): DynamicModule {
    return {
      module: BatchPortsModule,
      global: true,
      providers: [
        {
          provide: ROW_BUS,
          inject: [
            BATCH_CONFIG,
            { token: LOGGER, optional: true },
            { token: METRICS, optional: true },
          ],
          useFactory: (c: BatchConfig, logger?: Logger | null, metrics?: VerityMetrics | null) => {
            const bus = createRowBus(c, logger ?? undefined);
            if (bus instanceof MemoryRowBus) metrics?.setBusBacklogSource(() => bus.backlog());
            return bus;
          },
        },
        {
          provide: JOB_QUEUE,
          inject: [BATCH_CONFIG, CORE_CONFIG, { token: LOGGER, optional: true }],
          useFactory: (c: BatchConfig, core: CoreConfig, logger?: Logger | null) =>
            createJobQueue(
              { ...core, ...c },
              {
                // Bull's Redis connections report each failed reconnect; Bull prints nothing itself.
                onError: (err, queue) => logger?.warn({ err, queue }, 'job queue: Redis error'),
              },
            ),
        },
        {
          provide: BLOB_STORE,
          inject: [BATCH_CONFIG, CORE_CONFIG],
          useFactory: (c: BatchConfig, core: CoreConfig) => createBlobStore({ ...core, ...c }),
        },
        BatchPortsShutdown,
        BatchPortsHealth,
      ],
      exports: [ROW_BUS, JOB_QUEUE, BLOB_STORE],
    };
  }
}
