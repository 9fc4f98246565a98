/** Waiting for a slot ended without one: the deadline passed. */
export class SlotTimeout extends Error {
  override readonly name = 'SlotTimeout';
}

interface Waiter {
  grant: () => void;
  fail: (error: unknown) => void;
}

/**
 * A counting semaphore whose waits can end: at a deadline (a single call waits at most one
 * SMTP timeout) or when a signal aborts (the job ended, the process stops).
 */
export class SessionSlots {
  private readonly waiters: Waiter[] = [];

  constructor(private free: number) {}

  /** Resolves with a release function once a slot is free. */
  acquire(signal?: AbortSignal, deadlineMs?: number): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.free > 0) {
      this.free--;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onAbort = () => waiter.fail(signal!.reason);
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
      };
      const waiter: Waiter = {
        grant: () => {
          done();
          resolve(this.releaser());
        },
        fail: (error) => {
          done();
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (deadlineMs !== undefined) {
        timer = setTimeout(
          () => waiter.fail(new SlotTimeout('no session slot in time')),
          deadlineMs,
        );
      }
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiters[0];
      if (next) next.grant();
      else this.free++;
    };
  }
}
