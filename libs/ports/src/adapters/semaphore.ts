/** Counting semaphore: `acquire` resolves with a release function once a slot is free. */
export class Semaphore {
  private readonly queue: (() => void)[] = [];

  constructor(private free: number) {}

  async acquire(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.free++;
    };
  }
}
