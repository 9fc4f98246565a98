import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@verity/config';
import { ApiKeyRepository } from './api-key.repository';

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
    private readonly keys: ApiKeyRepository,
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
      await this.keys.markUsed([...batch.keys()], [...batch.values()]);
    } catch (error) {
      this.log.warn(`cannot record key activity: ${String(error)}`);
    }
  }
}
