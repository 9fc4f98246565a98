import type {
  BusMessage,
  ConsumeOptions,
  MessageHandler,
  OutgoingMessage,
  PartitionLag,
  RowBus,
  Subscription,
} from '../ports/row-bus.port';
import { deliverUntilHandled, hashKey } from './redelivery';
import { Semaphore } from './semaphore';

interface StoredMessage {
  key: string;
  value: Buffer;
}

/**
 * One partition's log. Offsets only grow; `base` is the offset of `messages[0]`. What every
 * group of the topic has committed is dropped, as Kafka's retention would eventually, so an
 * embedded install's memory follows its backlog, not its history.
 */
class PartitionLog {
  base = 0;
  messages: StoredMessage[] = [];

  get end(): number {
    return this.base + this.messages.length;
  }

  at(offset: number): StoredMessage | undefined {
    return offset < this.base ? undefined : this.messages[offset - this.base];
  }

  /** Forgets every message below `offset`; the bytes of their values. */
  trimTo(offset: number): number {
    if (offset <= this.base) return 0;
    const dropped = this.messages.slice(0, offset - this.base);
    this.messages = this.messages.slice(offset - this.base);
    this.base = offset;
    return dropped.reduce((n, m) => n + m.value.length, 0);
  }
}

/** A publish waiting for room in its topic's backlog. */
interface WaitingPublish {
  bytes: number;
  admit: () => void;
  refuse: (error: Error) => void;
}

/** One topic: a log per partition, the loops waiting for new messages, and its backlog. */
class MemoryTopic {
  readonly logs: PartitionLog[] = [];
  readonly groups = new Map<string, MemoryGroup>();
  private waiters = new Set<() => void>();
  /** Bytes of the message values held (published, not yet committed by every group). */
  backlogBytes = 0;
  /** Publishes waiting for room, in order. */
  readonly publishers: WaitingPublish[] = [];

  constructor(
    readonly name: string,
    private readonly maxBacklogBytes: number,
  ) {}

  /**
   * Takes room for `bytes` more in the backlog: at once when they fit (or when nothing is held,
   * so a batch larger than the limit still goes), else once consumers have committed enough.
   * Publishes are admitted in the order they arrived.
   */
  room(bytes: number): Promise<void> {
    if (this.publishers.length === 0 && this.fits(bytes)) {
      this.backlogBytes += bytes;
      return Promise.resolve();
    }
    return new Promise((admit, refuse) => this.publishers.push({ bytes, admit, refuse }));
  }

  private fits(bytes: number): boolean {
    return this.backlogBytes === 0 || this.backlogBytes + bytes <= this.maxBacklogBytes;
  }

  /** Admits the waiting publishes that fit now, in order. */
  private admitWaiting(): void {
    while (this.publishers.length > 0 && this.fits(this.publishers[0].bytes)) {
      const next = this.publishers.shift()!;
      // Counted now, so the next waiter sees the room this one takes.
      this.backlogBytes += next.bytes;
      next.admit();
    }
  }

  wait(): { promise: Promise<void>; wake: () => void } {
    let wake!: () => void;
    const promise = new Promise<void>((resolve) => (wake = resolve));
    this.waiters.add(wake);
    return {
      promise: promise.then(() => void this.waiters.delete(wake)),
      wake,
    };
  }

  notify(): void {
    const waiters = this.waiters;
    this.waiters = new Set();
    for (const wake of waiters) wake();
  }

  /** Drops partition `p`'s messages committed by every group (none are dropped without groups). */
  trim(p: number): void {
    if (this.groups.size === 0) return;
    let low = Infinity;
    for (const group of this.groups.values()) low = Math.min(low, group.committed[p] ?? 0);
    const freed = this.logs[p].trimTo(low);
    if (freed === 0) return;
    this.backlogBytes -= freed;
    this.admitWaiting();
  }
}

/** A consumer group on one topic: committed offsets, members, and per-partition hand-over. */
class MemoryGroup {
  readonly committed: number[] = [];
  readonly members: MemoryConsumer[] = [];
  /** The last loop started per partition; the next owner starts only after it ended. */
  readonly tails = new Map<number, Promise<void>>();

  constructor(
    readonly id: string,
    readonly topic: MemoryTopic,
  ) {}

  /** Range-free round-robin: partition p goes to the (p mod n)-th member in join order. */
  rebalance(): void {
    // A new group starts at the oldest message still kept (Kafka's `earliest`).
    while (this.committed.length < this.topic.logs.length) {
      this.committed.push(this.topic.logs[this.committed.length].base);
    }
    const active = this.members.filter((m) => !m.stopping);
    const owners = new Map<MemoryConsumer, Set<number>>(active.map((m) => [m, new Set()]));
    for (let p = 0; p < this.topic.logs.length && active.length > 0; p++) {
      owners.get(active[p % active.length])!.add(p);
    }
    // Revoke everywhere first, so a loop stops before its successor is chained after it.
    for (const member of this.members) member.revoke(owners.get(member) ?? new Set());
    for (const [member, parts] of owners) member.assign(parts);
  }
}

/** One member of a group: a loop per owned partition, at most `concurrency` handlers at once. */
class MemoryConsumer implements Subscription {
  stopping = false;
  private readonly owned = new Set<number>();
  private readonly revokers = new Map<number, AbortController>();
  private readonly loops = new Set<Promise<void>>();
  private readonly slots: Semaphore;
  /** Set while paused: loops wait on it before taking their next message. */
  private paused: { opened: Promise<void>; open: () => void } | null = null;

  constructor(
    private readonly group: MemoryGroup,
    private readonly handler: MessageHandler,
    private readonly opts: ConsumeOptions,
    private readonly onStopped: (c: MemoryConsumer) => void,
  ) {
    this.slots = new Semaphore(Math.max(1, opts.concurrency ?? 1));
  }

  revoke(keep: ReadonlySet<number>): void {
    for (const p of [...this.owned]) {
      if (keep.has(p)) continue;
      this.owned.delete(p);
      this.revokers.get(p)?.abort();
      this.revokers.delete(p);
    }
  }

  assign(parts: ReadonlySet<number>): void {
    for (const p of parts) {
      if (this.owned.has(p)) continue;
      this.owned.add(p);
      const revoked = new AbortController();
      this.revokers.set(p, revoked);
      const previous = this.group.tails.get(p) ?? Promise.resolve();
      const loop = this.runPartition(p, previous, revoked.signal);
      this.group.tails.set(p, loop);
      this.loops.add(loop);
      void loop.finally(() => this.loops.delete(loop));
    }
  }

  pause(): void {
    if (this.paused) return;
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    this.paused = { opened, open };
  }

  resume(): void {
    this.paused?.open();
    this.paused = null;
  }

  /** Resolves once resumed, or at once when `revoked` aborts. */
  private async whilePaused(revoked: AbortSignal): Promise<void> {
    const paused = this.paused;
    if (!paused || revoked.aborted) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        revoked.removeEventListener('abort', done);
        resolve();
      };
      revoked.addEventListener('abort', done, { once: true });
      void paused.opened.then(done);
    });
  }

  async stop(): Promise<void> {
    if (this.stopping) {
      await Promise.all([...this.loops]);
      return;
    }
    this.stopping = true;
    this.group.rebalance(); // hands our partitions to the others; their loops wait for ours
    this.onStopped(this);
    await Promise.all([...this.loops]);
  }

  private async runPartition(p: number, previous: Promise<void>, revoked: AbortSignal) {
    await previous;
    const { topic, committed } = this.group;
    while (!revoked.aborted) {
      const next = committed[p];
      const stored = topic.logs[p].at(next);
      if (stored === undefined) {
        const waiter = topic.wait();
        const onAbort = () => waiter.wake();
        revoked.addEventListener('abort', onAbort, { once: true });
        await waiter.promise;
        revoked.removeEventListener('abort', onAbort);
        continue;
      }
      if (this.paused) {
        await this.whilePaused(revoked);
        continue;
      }
      const msg: BusMessage = {
        topic: topic.name,
        partition: p,
        offset: String(next),
        key: stored.key,
        value: Buffer.from(stored.value),
      };
      const release = await this.slots.acquire();
      try {
        if (revoked.aborted) break;
        const handled = await deliverUntilHandled(this.handler, msg, revoked, (err, attempt) =>
          this.opts.onHandlerError?.(err, msg, attempt),
        );
        if (handled) {
          committed[p] = next + 1;
          topic.trim(p);
        }
      } finally {
        release();
      }
    }
  }
}

/** The default backlog of one topic: ROW_BUS_MEMORY_MAX_BYTES's default. */
export const MEMORY_BUS_MAX_BACKLOG_BYTES = 64 * 1024 * 1024;

/** A topic's backlog as verity_row_bus_backlog_bytes reports it. */
export interface TopicBacklog {
  topic: string;
  bytes: number;
}

/**
 * In-process RowBus with Kafka's rules (partitions, group offsets, at-least-once redelivery,
 * partitions shared by the members of a group and handed over on join/leave). Messages live
 * only as long as the process: it is for the single-process mode and for tests.
 *
 * What it holds is bounded: a topic keeps at most `maxBacklogBytes` of message values that not
 * every group has committed, and a publish that would exceed it waits until consumers have
 * committed enough (backpressure: the splitter of an upload then reads no faster than the
 * scorers score). So the process's memory follows this setting, not the size or number of
 * uploads. Kafka keeps its backlog on the brokers' disks and needs no such bound.
 */
export class MemoryRowBus implements RowBus {
  readonly durable = false;
  private readonly topics = new Map<string, MemoryTopic>();
  private readonly subscriptions = new Set<MemoryConsumer>();
  private closed = false;

  constructor(private readonly maxBacklogBytes = MEMORY_BUS_MAX_BACKLOG_BYTES) {}

  ensureTopic(topic: string, partitions: number): Promise<void> {
    let t = this.topics.get(topic);
    if (!t) {
      t = new MemoryTopic(topic, this.maxBacklogBytes);
      this.topics.set(topic, t);
    }
    while (t.logs.length < partitions) t.logs.push(new PartitionLog());
    for (const group of t.groups.values()) group.rebalance();
    return Promise.resolve();
  }

  async publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void> {
    await Promise.resolve();
    if (this.closed) throw new Error('the row bus is closed');
    const t = this.requireTopic(topic);
    const n = t.logs.length;
    for (const m of messages) {
      if (m.partition !== undefined && (m.partition < 0 || m.partition >= n)) {
        throw new RangeError(`topic ${topic} has no partition ${m.partition}`);
      }
    }
    await t.room(messages.reduce((bytes, m) => bytes + m.value.length, 0));
    for (const m of messages) {
      const p = m.partition ?? hashKey(m.key) % n;
      // Copy: a caller reusing its buffer must not change what was "durably" published.
      t.logs[p].messages.push({ key: m.key, value: Buffer.from(m.value) });
    }
    t.notify();
  }

  async consume(
    group: string,
    topic: string,
    handler: MessageHandler,
    opts: ConsumeOptions = {},
  ): Promise<Subscription> {
    await Promise.resolve();
    const t = this.requireTopic(topic);
    let g = t.groups.get(group);
    if (!g) {
      g = new MemoryGroup(group, t);
      t.groups.set(group, g);
    }
    const grp = g;
    const consumer = new MemoryConsumer(grp, handler, opts, (c) => {
      grp.members.splice(grp.members.indexOf(c), 1);
      this.subscriptions.delete(c);
    });
    grp.members.push(consumer);
    this.subscriptions.add(consumer);
    grp.rebalance();
    return consumer;
  }

  async lag(group: string, topic: string): Promise<PartitionLag[]> {
    await Promise.resolve();
    const t = this.requireTopic(topic);
    const committed = t.groups.get(group)?.committed ?? [];
    return t.logs.map((log, partition) => ({
      partition,
      lag: log.end - (committed[partition] ?? log.base),
    }));
  }

  /** Messages held for `topic` across its partitions (what no group has committed yet). */
  retainedMessages(topic: string): number {
    return this.requireTopic(topic).logs.reduce((n, log) => n + log.messages.length, 0);
  }

  /** Bytes of message values each topic holds (verity_row_bus_backlog_bytes). */
  backlog(): TopicBacklog[] {
    return [...this.topics.values()].map((t) => ({ topic: t.name, bytes: t.backlogBytes }));
  }

  ping(): Promise<void> {
    return Promise.resolve();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.topics.values())
      for (const waiting of t.publishers.splice(0))
        waiting.refuse(new Error('the row bus is closed'));
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
  }

  private requireTopic(topic: string): MemoryTopic {
    const t = this.topics.get(topic);
    if (!t) throw new Error(`unknown topic ${topic}: call ensureTopic first`);
    return t;
  }
}
