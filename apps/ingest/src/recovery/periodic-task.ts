import type { Logger } from '@nestjs/common';

/**
 * A background sweep run every `intervalMs`, never twice at once (a slow run makes the next
 * tick a no-op), whose failures are logged and retried at the next tick; `stop` waits for a
 * run in progress so shutdown does not cut it midway.
 */
export class PeriodicTask {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly log: Logger,
    private readonly what: string,
  ) {}

  start(intervalMs: number, run: () => Promise<unknown>): void {
    this.timer = setInterval(() => {
      this.running ??= run()
        .then(
          () => undefined,
          (error: unknown) => this.log.warn(`${this.what} failed: ${String(error)}`),
        )
        .finally(() => (this.running = undefined));
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }
}
