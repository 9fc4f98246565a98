import { setTimeout as sleep } from 'node:timers/promises';

/** Builds a port for one test and disposes of it after (close, delete test data). */
export interface PortHarness<T> {
  create(): Promise<T>;
  dispose(port: T): Promise<void>;
}

/** Polls `check` until it holds; fails with `what` after `timeoutMs` (a liveness deadline). */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** A unique, name-safe suffix for topics, groups, queues and key prefixes. */
export function uniqueName(stem: string): string {
  return `${stem}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}

/** A promise with its resolve/reject handles exposed, for gating handlers in tests. */
export function deferred<T = void>(): {
  promise: Promise<T>;
  resolve: (v: T) => void;
  reject: (e: Error) => void;
} {
  let resolve!: (v: T) => void;
  let reject!: (e: Error) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}
