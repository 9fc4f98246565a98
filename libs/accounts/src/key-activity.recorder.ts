import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import { APP_CONFIG, type AppConfig } from '@verity/config';

/**
 * `last_used_at` of API keys without a write per call: authentications are noted in memory and
 * written in one statement every KEY_LAST_USED_FLUSH_MS (and at shutdown), so the column may
 * lag by that much (a minute by default). A crash loses at most that interval's marks.
 */
@Injectable()
export class KeyActivityRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('KeyActivity');
  private seen = new Map<string, Date>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.flush(), this.config.KEY_LAST_USED_FLUSH_MS);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush();
  }

  touch(keyId: string): void {
    this.seen.set(keyId, new Date());
  }

  /** Writes the marks gathered since the last flush. */
  async flush(): Promise<void> {
    if (this.seen.size === 0) return;
    const batch = this.seen;
    this.seen = new Map();
    try {
      // Raw SQL: one UPDATE … FROM unnest for the whole flush (the query builder would need one per key).
      await this.db.query(
        `UPDATE api_keys k SET last_used_at = GREATEST(k.last_used_at, t.at)
         FROM unnest($1::uuid[], $2::timestamptz[]) AS t(id, at) WHERE k.id = t.id`,
        [[...batch.keys()], [...batch.values()]],
      );
    } catch (error) {
      this.log.warn(`cannot record key activity: ${String(error)}`);
    }
  }
}
