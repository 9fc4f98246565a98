/** A message to publish: `key` picks the partition (stable hash) unless `partition` is given. */
export interface OutgoingMessage {
  key: string;
  value: Buffer;
  partition?: number;
}

/** A message as delivered to a consumer. `offset` is a decimal string (Kafka offsets are int64). */
export interface BusMessage {
  topic: string;
  partition: number;
  offset: string;
  key: string;
  value: Buffer;
}

/** Handles one message; resolving commits it, rejecting means it is delivered again. */
export type MessageHandler = (msg: BusMessage) => Promise<void>;

/** Options of {@link RowBus.consume}. */
export interface ConsumeOptions {
  /** How many partitions this consumer processes at once (order is kept within a partition). Default 1. */
  concurrency?: number;
  /** Told about every rejected handler before its redelivery (logs, metrics). */
  onHandlerError?: (error: unknown, msg: BusMessage, attempt: number) => void;
}

/** A running consumer. */
export interface Subscription {
  /**
   * Stops taking new messages (handlers in flight go on, and keep redelivering in place) until
   * {@link resume}: a worker waiting out a dependency outage does not fetch work it cannot do.
   */
  pause(): void;
  /** Takes messages again after {@link pause}; a no-op when not paused. */
  resume(): void;
  /** Stops fetching, lets in-flight handlers finish, commits them and leaves the group. */
  stop(): Promise<void>;
}

/** Unconsumed messages of one partition for one consumer group. */
export interface PartitionLag {
  partition: number;
  lag: number;
}

/**
 * Partitioned, durable message log (Kafka semantics). Delivery is at-least-once: an offset is
 * committed only after its handler resolved; a rejected handler is retried (with backoff) by
 * the same consumer, and a consumer that stops or dies without committing leaves the message
 * to whichever member of the group takes the partition over. Order is kept per partition.
 * A new group starts from the earliest offset. Use one group per topic.
 */
export interface RowBus {
  /**
   * Whether published messages outlive this process. False for the in-process bus: after a
   * restart, whatever it held and no consumer had committed is gone, so the batch recovery
   * publishes again every chunk that was not recorded as scored (docs/batch.md, "Recovery").
   */
  readonly durable: boolean;
  /** Creates the topic, or grows it to `partitions` if it has fewer. */
  ensureTopic(topic: string, partitions: number): Promise<void>;
  /**
   * Appends messages; resolves once they are durably accepted. A bus that holds its backlog in
   * this process's memory bounds it: the publish then waits until consumers have committed
   * enough (backpressure). Nothing is dropped and order is kept either way.
   */
  publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void>;
  /** Joins `group` on `topic`; resolves once the consumer has its first partition assignment. */
  consume(
    group: string,
    topic: string,
    handler: MessageHandler,
    opts?: ConsumeOptions,
  ): Promise<Subscription>;
  /** Per-partition lag of `group` on `topic` (end offset minus committed offset). */
  lag(group: string, topic: string): Promise<PartitionLag[]>;
  /** Resolves when the bus answers (readiness); rejects when it cannot be reached. */
  ping(): Promise<void>;
  /** Stops every subscription and releases connections. */
  close(): Promise<void>;
}
