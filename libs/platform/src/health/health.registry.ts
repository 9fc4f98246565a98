import { Injectable } from '@nestjs/common';

/** One readiness check's answer; `detail` is shown to operators, so never put secrets in it. */
export interface CheckResult {
  ok: boolean;
  detail?: unknown;
}

/**
 * A check as /readyz reports it: `required` says whether it decides readiness (else it is shown
 * here and in `verity_readiness_check` only); `timed_out` marks a check that gave no answer
 * within {@link CHECK_TIMEOUT_MS}.
 */
export interface ReportedCheck extends CheckResult {
  required: boolean;
  timed_out?: true;
}

/** A check to register; one marked {@link reportedOnly} is shown but never decides readiness. */
export type ResourceCheck = (() => Promise<CheckResult>) & { reportOnly?: true };

/** `check`, shown in /readyz and the metric but never deciding readiness (a warning, such as the resolvers' canary). */
export function reportedOnly(check: () => Promise<CheckResult>): ResourceCheck {
  return Object.assign(check, { reportOnly: true as const });
}

export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<string, ReportedCheck>;
}

/**
 * Each check's own deadline: well under the probes' 3 s timeout (deploy/k8s), so /readyz always
 * answers in time, with the slow check marked `timed_out`, instead of the probe timing out.
 */
export const CHECK_TIMEOUT_MS = 1_000;

/**
 * A check still running this long after it started is abandoned and the next run starts a new
 * one. Until then runs share it, so a dependency that swallows requests (a black hole) costs
 * one pending ping, not one per probe.
 */
const ABANDON_AFTER_MS = 10 * CHECK_TIMEOUT_MS;

/** The check a draining process reports instead of its own checks. */
export const DRAINING_CHECK = 'draining';

/** The database check (HealthController registers it). */
export const DATABASE_CHECK = 'database';

interface Running {
  result: Promise<CheckResult>;
  startedAt: number;
}

/**
 * Components register their checks (database, Kafka, Redis, blob store, data sets); the
 * deployable says which of them decide its readiness ({@link reportOnly}): the API stays in the
 * load balancer while the batch dependencies are down, a scorer without Kafka does not.
 */
@Injectable()
export class HealthRegistry {
  private readonly checks = new Map<string, () => Promise<CheckResult>>();
  private readonly running = new Map<string, Running>();
  private readonly informational = new Set<string>();
  private drainingSince: Date | null = null;

  register(name: string, check: ResourceCheck): void {
    this.checks.set(name, check);
    if (check.reportOnly) this.informational.add(name);
  }

  /**
   * Checks that are reported (in /readyz's detail and the metric) but do not decide readiness:
   * dependencies this process's traffic does not need. Every other check is required.
   */
  reportOnly(names: readonly string[]): void {
    for (const name of names) this.informational.add(name);
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
      return {
        status: 'not_ready',
        checks: { [DRAINING_CHECK]: { ok: false, required: true, detail } },
      };
    }
    const entries = await Promise.all(
      [...this.checks.keys()].map(async (name) => {
        const required = !this.informational.has(name);
        return [name, { ...(await this.answer(name)), required }] as const;
      }),
    );
    const ready = entries.every(([, r]) => r.ok || !r.required);
    return { status: ready ? 'ready' : 'not_ready', checks: Object.fromEntries(entries) };
  }

  /** The check's answer, or a timeout after {@link CHECK_TIMEOUT_MS}. */
  private async answer(name: string): Promise<CheckResult & { timed_out?: true }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<CheckResult & { timed_out: true }>((resolve) => {
      timer = setTimeout(
        () =>
          resolve({
            ok: false,
            timed_out: true,
            detail: `no answer within ${CHECK_TIMEOUT_MS} ms`,
          }),
        CHECK_TIMEOUT_MS,
      );
    });
    try {
      return await Promise.race([this.start(name), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** Starts the check, or joins its run still in flight (see {@link ABANDON_AFTER_MS}). */
  private start(name: string): Promise<CheckResult> {
    const now = Date.now();
    const current = this.running.get(name);
    if (current && now - current.startedAt < ABANDON_AFTER_MS) return current.result;
    const check = this.checks.get(name)!;
    const run: Running = {
      startedAt: now,
      result: Promise.resolve()
        .then(check)
        .catch((error: unknown) => ({
          ok: false,
          detail: error instanceof Error ? error.message : String(error),
        }))
        .finally(() => {
          if (this.running.get(name) === run) this.running.delete(name);
        }),
    };
    this.running.set(name, run);
    return run.result;
  }
}
