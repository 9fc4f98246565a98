import type { Engines } from '@verity/platform';
import { PROGRESS_INTERVAL_MS } from './chunk-progress.reporter';

/** Thrown into a chunk's scoring once its job ended: the rows not started are not scored. */
export class JobEnded extends Error {
  constructor(jobId: string) {
    super(`job ${jobId} ended while its chunk was scored`);
  }
}

/**
 * Watches, while a chunk is scored, whether its job is still running: a timer asks about once
 * a second (one question at a time; a failed one is asked again at the next tick), so a
 * cancelled job's chunk stops within about a second of rows instead of being scored to its
 * end. The cost is per chunk and per second, never per row.
 */
export class JobEndWatch {
  private ended = false;
  private asking = false;
  private readonly timer: NodeJS.Timeout;
  private readonly aborted = new AbortController();

  constructor(
    private readonly jobId: string,
    running: () => Promise<boolean>,
    intervalMs = PROGRESS_INTERVAL_MS,
  ) {
    this.timer = setInterval(() => {
      if (this.asking || this.ended) return;
      this.asking = true;
      running()
        .then((yes) => {
          if (yes) return;
          this.ended = true;
          this.aborted.abort(new JobEnded(this.jobId));
        })
        .catch(() => undefined)
        .finally(() => (this.asking = false));
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Aborts with JobEnded once the job is seen ended (waits and SMTP probes stop at once). */
  get signal(): AbortSignal {
    return this.aborted.signal;
  }

  /**
   * `engines` that refuse to start another email or phone row once the job is seen ended (an
   * ip chunk is scored without yielding, so no answer could arrive while it runs); an email
   * chunk's rows stop at the next row, its SMTP probe at once.
   */
  engines(engines: Engines): Engines {
    const go = <T>(next: () => Promise<T>): Promise<T> =>
      this.ended ? Promise.reject(new JobEnded(this.jobId)) : next();
    return {
      email: {
        validate: (input) => go(() => engines.email.validate(input)),
        check: (input) => engines.email.check(input),
        explain: (input) => engines.email.explain(input),
        checkMany: (inputs, options) =>
          go(() =>
            engines.email.checkMany(inputs, {
              ...options,
              signal:
                options.signal === undefined
                  ? this.signal
                  : AbortSignal.any([options.signal, this.signal]),
            }),
          ),
        analyzeOffline: (input) => engines.email.analyzeOffline(input),
      },
      phone: { validate: (request) => go(() => engines.phone.validate(request)) },
      ip: engines.ip,
    };
  }
}
