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

/** Components register what "ready" means for them (database, Kafka, Redis, blob store, data sets). */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, () => Promise<CheckResult>>();

  register(name: string, check: () => Promise<CheckResult>): void {
    this.checks.set(name, check);
  }

  async run(): Promise<ReadinessReport> {
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
