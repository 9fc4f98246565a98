import type { Logger } from 'pino';

const SIGNALS: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

/** What a checkpoint of a start throws once SIGINT or SIGTERM asked the process to stop. */
export class StartStopped extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`${signal} while starting`);
    this.name = 'StartStopped';
  }
}

/**
 * The stop of a process that is still starting. Node's default for SIGINT and SIGTERM is to end
 * the process at once, which would leave whatever the start had opened (an embedded PostgreSQL
 * runs in its own process group) running. From the first line of a start until
 * `closeOnSignal` takes over, a signal instead aborts {@link signal}: every step checks it
 * ({@link check}, `signal.throwIfAborted()`), the start unwinds closing what it opened, and
 * the process exits 0 ({@link exitStopped}), as a stop after the start does. A step that does
 * not come back within `timeoutMs` ends the process with 1 (an embedded PostgreSQL is still
 * asked to stop on exit).
 */
export class StartGuard {
  private readonly controller = new AbortController();
  private logger: Logger | null = null;
  private timer: NodeJS.Timeout | null = null;
  private readonly onSignal = (signal: NodeJS.Signals) => this.stop(signal);

  private constructor(private readonly timeoutMs: number) {
    for (const signal of SIGNALS) process.on(signal, this.onSignal);
  }

  /** Installs the start's signal handlers; call first thing in a start. */
  static install(timeoutMs: number): StartGuard {
    return new StartGuard(timeoutMs);
  }

  /** Aborted (with a {@link StartStopped} reason) by the first SIGINT or SIGTERM. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get stopped(): NodeJS.Signals | null {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof StartStopped ? reason.signal : null;
  }

  /** Where the stop is logged once the process has its logger (stderr before that). */
  useLogger(logger: Logger): void {
    this.logger = logger;
  }

  /** Throws {@link StartStopped} when a stop was asked: call between the steps of a start. */
  check(): void {
    this.controller.signal.throwIfAborted();
  }

  /**
   * Ends the guard once the process's own handler is installed; `resume` gets a stop that was
   * asked after the last check, so the running process closes at once.
   */
  handOver(resume: (signal: NodeJS.Signals) => void): void {
    for (const signal of SIGNALS) process.removeListener(signal, this.onSignal);
    if (this.timer) clearTimeout(this.timer);
    const stopped = this.stopped;
    if (stopped) resume(stopped);
  }

  /** After the start unwound on a stop: the process exits 0, like a stop after the start. */
  exitStopped(): never {
    if (this.timer) clearTimeout(this.timer);
    this.say(
      'info',
      `stopped while starting (${this.stopped ?? 'signal'}); everything it opened is closed`,
    );
    process.exit(0);
  }

  private stop(signal: NodeJS.Signals): void {
    if (this.controller.signal.aborted) return;
    this.say('info', `${signal} while starting: stopping after the current step`);
    this.controller.abort(new StartStopped(signal));
    this.timer = setTimeout(() => {
      this.say('error', `the start did not stop within ${this.timeoutMs} ms; exiting`);
      process.exit(1);
    }, this.timeoutMs);
    this.timer.unref();
  }

  private say(level: 'info' | 'error', message: string): void {
    if (this.logger) this.logger[level](message);
    else process.stderr.write(`${message}\n`);
  }
}
