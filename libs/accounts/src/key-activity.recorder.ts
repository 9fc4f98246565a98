import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationShutdown,
  type OnModuleInit,
} from '@nestjs/common';
import { CONSOLE_CONFIG, type ConsoleConfig } from '@verity/config';
import { ApiKeyRepository } from './api-key.repository';
import type { Principal } from './principal';
import { UsageRepository, type TestCalls } from './usage.repository';

const HOUR_MS = 3_600_000;

/**
 * What API keys do, without a write per call: authentications (`last_used_at`) and the calls
 * of test keys (usage_test_hourly, per account, key, operation and hour) are noted in memory
 * and written every KEY_LAST_USED_FLUSH_MS, at shutdown, and before the console reads usage
 * (`flush`), so the columns may lag by that much (a minute by default). A crash loses at most
 * that interval's marks and counts; no credits depend on them.
 */
@Injectable()
export class KeyActivityRecorder implements OnModuleInit, OnApplicationShutdown {
  private readonly log = new Logger('KeyActivity');
  private seen = new Map<string, Date>();
  private testCalls = new Map<string, TestCalls>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly keys: ApiKeyRepository,
    private readonly usage: UsageRepository,
    @Inject(CONSOLE_CONFIG) private readonly config: ConsoleConfig,
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

  /** Counts one successful call of a test key (which is never charged). */
  testCall(principal: Principal, operation: string): void {
    const hour = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS);
    const key = `${principal.keyId}/${operation}/${hour.getTime()}`;
    const counted = this.testCalls.get(key);
    if (counted) counted.calls += 1;
    else
      this.testCalls.set(key, {
        accountId: principal.accountId,
        keyId: principal.keyId,
        operation,
        hour,
        calls: 1,
      });
  }

  /** Writes the marks and counts gathered since the last flush. */
  async flush(): Promise<void> {
    const [seen, testCalls] = [this.seen, this.testCalls];
    this.seen = new Map();
    this.testCalls = new Map();
    try {
      if (seen.size > 0) await this.keys.markUsed([...seen.keys()], [...seen.values()]);
      await this.usage.addTestCalls([...testCalls.values()]);
    } catch (error) {
      this.log.warn(`cannot record key activity: ${String(error)}`);
    }
  }
}
