import { Injectable } from '@nestjs/common';
import { OutageWatch, type OutageWatchOptions } from './outage-watch';

/**
 * The process's batch workers' outages in one place: each worker takes its OutageWatch from
 * here, so the recovery sweep can tell a job that stalled from one waiting, with everyone
 * else, for a dependency to come back (docs/batch.md, "Recovery").
 */
@Injectable()
export class BatchOutages {
  private readonly watches: OutageWatch[] = [];

  /** A new watch for one worker, reported on by {@link waiting}. */
  watch(options: OutageWatchOptions): OutageWatch {
    const watch = new OutageWatch(options);
    this.watches.push(watch);
    return watch;
  }

  /** True while any worker of this process waits out a dependency outage. */
  get waiting(): boolean {
    return this.watches.some((w) => w.waiting);
  }
}
