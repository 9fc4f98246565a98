import { Injectable } from '@nestjs/common';

/** One readiness check's answer; `detail` is shown to operators, so never put secrets in it. */
export interface CheckResult {
  ok: boolean;
  detail?: unknown;
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckResult>;
}

const CHECK_TIMEOUT_MS = 3_000;

/** The check a draining process reports instead of its own checks. */
export const DRAINING_CHECK = 'draining';

/** Components register what "ready" means for them (database, Kafka, Redis, blob store, data sets). */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, () => Promise<CheckResult>>();
  private drainingSince: Date | null = null;

  register(name: string, check: () => Promise<CheckResult>): void {
    this.checks.set(name, check);
  }

  /** True once {@link drain} was called: the process is shutting down. */
  get draining(): boolean {
    return this.drainingSince !== null;
  }

  /**
   * Marks the process as shutting down: from now on readiness is `not_ready` without running
   * the checks (the connections they probe are being closed), so load balancers and Kubernetes
   * stop sending work while in-flight requests and chunks finish. Liveness is unaffected.
   */
  drain(): void {
    this.drainingSince ??= new Date();
  }

  async run(): Promise<ReadinessReport> {
    if (this.drainingSince) {
      const detail = `shutting down since ${this.drainingSince.toISOString()}`;
      return { status: 'not_ready', checks: { [DRAINING_CHECK]: { ok: false, detail } } };
    }
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => [name, await withTimeout(check)] as const),
    );
    const checks = Object.fromEntries(entries);
    return { status: entries.every(([, r]) => r.ok) ? 'ready' : 'not_ready', checks };
  }
}

async function withTimeout(check: () => Promise<CheckResult>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(
      () => resolve({ ok: false, detail: `no answer within ${CHECK_TIMEOUT_MS} ms` }),
      CHECK_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([
      check().catch((error: unknown) => ({
        ok: false,
        detail: error instanceof Error ? error.message : String(error),
      })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
