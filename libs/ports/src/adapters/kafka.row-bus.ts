import { setTimeout as sleep } from 'node:timers/promises';
import {
  Kafka,
  KafkaJSError,
  logLevel,
  Partitioners,
  type Admin,
  type Consumer,
  type EachMessagePayload,
  type Producer,
} from 'kafkajs';
import type { Logger } from 'pino';
import type {
  BusMessage,
  ConsumeOptions,
  MessageHandler,
  OutgoingMessage,
  PartitionLag,
  RowBus,
  Subscription,
} from '../ports/row-bus.port';
import { kafkaLogCreator, kafkaLogLevel } from './kafka.log';
import { installKafkaCrc32c } from './kafka.crc32c';
import { installKafkaEncoderAlloc } from './kafka.encoder';
import { recogniseKafkaOutages } from './kafka.outage';
import { installKafkaIdleFix } from './kafka.request-queue';
import { deliverUntilHandled } from './redelivery';

/** Connection and group-timing settings of {@link KafkaRowBus}. */
export interface KafkaRowBusOptions {
  brokers: string[];
  clientId: string;
  /** A dead consumer's partitions move after this (broker minimum is usually 6 s). */
  sessionTimeoutMs?: number;
  rebalanceTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  /** Long-poll wait of an idle fetch; bounds how late a consumer notices a rebalance. */
  maxWaitTimeMs?: number;
  /** kafkajs logs through it (kafka.log.ts); without one, its own console lines at warn. */
  logger?: Logger;
  /** Replication factor of the topics ensureTopic creates; unset: {@link defaultReplicationFactor}. */
  replicationFactor?: number;
}

/**
 * Three copies keep every chunk through one broker's loss (the producer writes with acks=all);
 * a cluster of fewer brokers can hold only as many copies as it has brokers.
 */
export function defaultReplicationFactor(brokers: number): number {
  return Math.max(1, Math.min(3, brokers));
}

/** How often {@link KafkaRowBus.ensureTopic} asks again while a new topic's metadata propagates. */
const TOPIC_PROPAGATION_ATTEMPTS = 10;

/** Thrown out of eachMessage to leave a message uncommitted; a KafkaJSError so kafkajs won't log it. */
class LeaveUncommitted extends KafkaJSError {
  constructor() {
    super('consumer stopping: message left for the next owner', { retriable: true });
  }
}

/** One kafkajs consumer (group member); see {@link RowBus.consume} for the rules. */
class KafkaSubscription implements Subscription {
  private readonly inFlight = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private stopped?: Promise<void>;

  constructor(
    private readonly consumer: Consumer,
    private readonly topic: string,
    private readonly handler: MessageHandler,
    private readonly opts: ConsumeOptions,
    private readonly heartbeatMs: number,
    private readonly onStopped: () => void,
  ) {}

  async onMessage(payload: EachMessagePayload): Promise<void> {
    if (this.stopping.signal.aborted) throw new LeaveUncommitted();
    const run = this.handle(payload);
    this.inFlight.add(run);
    try {
      await run;
    } finally {
      this.inFlight.delete(run);
    }
  }

  stop(): Promise<void> {
    this.stopped ??= this.shutdown();
    return this.stopped;
  }

  pause(): void {
    if (!this.stopping.signal.aborted) this.consumer.pause([{ topic: this.topic }]);
  }

  resume(): void {
    if (!this.stopping.signal.aborted) this.consumer.resume([{ topic: this.topic }]);
  }

  private async handle(payload: EachMessagePayload) {
    const { topic, partition, message } = payload;
    const heartbeat = () => payload.heartbeat();
    const msg: BusMessage = {
      topic,
      partition,
      offset: message.offset,
      key: message.key?.toString('utf8') ?? '',
      value: message.value ?? Buffer.alloc(0),
    };
    // A long handler must not cost us the partition: keep heartbeating while it runs.
    const beat = setInterval(() => {
      heartbeat().catch(() => undefined);
    }, this.heartbeatMs);
    try {
      const handled = await deliverUntilHandled(
        this.handler,
        msg,
        this.stopping.signal,
        (err, attempt) => this.opts.onHandlerError?.(err, msg, attempt),
        // Throws if the group is rebalancing: kafkajs then rejoins, and the message goes to
        // the partition's new owner uncommitted.
        heartbeat,
      );
      if (!handled) throw new LeaveUncommitted();
      const next = (BigInt(message.offset) + 1n).toString();
      await this.consumer.commitOffsets([{ topic, partition, offset: next }]);
    } finally {
      clearInterval(beat);
    }
  }

  /**
   * kafkajs drops commits once its runner is stopping, so we first pause fetching and let
   * in-flight handlers finish and commit while the runner still runs, then leave the group.
   */
  private async shutdown(): Promise<void> {
    this.stopping.abort();
    this.consumer.pause([{ topic: this.topic }]);
    await Promise.allSettled([...this.inFlight]);
    await this.consumer.disconnect();
    this.onStopped();
  }
}

/**
 * RowBus on Kafka (kafkajs): idempotent producer with acks=all; consumers with manual
 * commits after each handled message, heartbeats during long handlers, and in-place
 * redelivery with backoff when a handler rejects.
 */
export class KafkaRowBus implements RowBus {
  readonly durable = true;
  private readonly kafka: Kafka;
  private producer?: Promise<Producer>;
  private admin?: Promise<Admin>;
  private readonly subscriptions = new Set<KafkaSubscription>();
  private readonly created = new Set<string>();
  private readonly timing: Required<
    Pick<
      KafkaRowBusOptions,
      'sessionTimeoutMs' | 'rebalanceTimeoutMs' | 'heartbeatIntervalMs' | 'maxWaitTimeMs'
    >
  >;

  private readonly replicationFactor: number | undefined;

  constructor(options: KafkaRowBusOptions) {
    installKafkaIdleFix(); // idle connections must not spin (kafka.request-queue.ts)
    installKafkaCrc32c(); // produced batches are checksummed eight bytes a step (kafka.crc32c.ts)
    installKafkaEncoderAlloc(); // request buffers grow without zero-filling (kafka.encoder.ts)
    recogniseKafkaOutages(); // a broker out of reach is an outage of `kafka` (kafka.outage.ts)
    const { logger } = options;
    this.replicationFactor = options.replicationFactor;
    this.kafka = new Kafka({
      clientId: options.clientId,
      brokers: options.brokers,
      ...(logger
        ? { logLevel: kafkaLogLevel(logger), logCreator: kafkaLogCreator(logger) }
        : { logLevel: logLevel.WARN }),
    });
    this.timing = {
      sessionTimeoutMs: options.sessionTimeoutMs ?? 10_000,
      rebalanceTimeoutMs: options.rebalanceTimeoutMs ?? 30_000,
      // kafkajs's own heartbeat (3 s, a third of the session timeout). An idle member's fetch
      // comes back empty every maxWaitTimeMs and each round trip is work: at 1 s / 1 s an idle
      // scorer or ingest used ~0.6 % of a core. A fetch still returns as soon as rows arrive.
      heartbeatIntervalMs: options.heartbeatIntervalMs ?? 3_000,
      maxWaitTimeMs: options.maxWaitTimeMs ?? 3_000,
    };
  }

  async ensureTopic(topic: string, partitions: number): Promise<void> {
    // Right after a topic is created, a busy broker can still answer metadata requests with
    // UNKNOWN_TOPIC_OR_PARTITION (kafkajs retries only LEADER_NOT_AVAILABLE while waiting for
    // leaders): that is propagation, not a missing topic, so ask again instead of failing start-up.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.ensureTopicOnce(topic, partitions);
      } catch (error) {
        const type = (error as { type?: string }).type;
        if (type !== 'UNKNOWN_TOPIC_OR_PARTITION' || attempt >= TOPIC_PROPAGATION_ATTEMPTS)
          throw error;
        await sleep(200 * attempt);
      }
    }
  }

  private async ensureTopicOnce(topic: string, partitions: number): Promise<void> {
    const admin = await this.adminClient();
    // Asking to create a topic that exists makes kafkajs log "Topic creation errors" at ERROR
    // (then createTopics returns false), so look first: a normal start logs no error. Two
    // processes creating the same new topic at once can still log it once; that is harmless.
    if (!(await admin.listTopics()).includes(topic)) {
      // Explicit, never the broker's default.replication.factor (1 unless the operator set it).
      const replicationFactor =
        this.replicationFactor ??
        defaultReplicationFactor((await admin.describeCluster()).brokers.length);
      const made = await admin.createTopics({
        topics: [{ topic, numPartitions: partitions, replicationFactor }],
        waitForLeaders: true,
      });
      if (made) {
        this.created.add(topic);
        return;
      }
    }
    const meta = await admin.fetchTopicMetadata({ topics: [topic] });
    const have = meta.topics[0]?.partitions.length ?? 0;
    if (have < partitions) {
      await admin.createPartitions({ topicPartitions: [{ topic, count: partitions }] });
    }
  }

  async publish(topic: string, messages: readonly OutgoingMessage[]): Promise<void> {
    if (messages.length === 0) return;
    const producer = await this.producerClient();
    await producer.send({
      topic,
      acks: -1,
      messages: messages.map((m) => ({ key: m.key, value: m.value, partition: m.partition })),
    });
  }

  async consume(
    group: string,
    topic: string,
    handler: MessageHandler,
    opts: ConsumeOptions = {},
  ): Promise<Subscription> {
    const consumer = this.kafka.consumer({
      groupId: group,
      sessionTimeout: this.timing.sessionTimeoutMs,
      rebalanceTimeout: this.timing.rebalanceTimeoutMs,
      heartbeatInterval: this.timing.heartbeatIntervalMs,
      maxWaitTimeInMs: this.timing.maxWaitTimeMs,
      allowAutoTopicCreation: false,
    });
    const sub = new KafkaSubscription(
      consumer,
      topic,
      handler,
      opts,
      this.timing.heartbeatIntervalMs,
      () => this.subscriptions.delete(sub),
    );
    const joined = new Promise<void>((resolve, reject) => {
      const offJoin = consumer.on(consumer.events.GROUP_JOIN, () => {
        offJoin();
        offCrash();
        resolve();
      });
      const offCrash = consumer.on(consumer.events.CRASH, (e) => {
        offJoin();
        offCrash();
        reject(e.payload.error);
      });
    });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning: true });
      await consumer.run({
        autoCommit: false,
        partitionsConsumedConcurrently: Math.max(1, opts.concurrency ?? 1),
        eachMessage: (payload) => sub.onMessage(payload),
      });
      await joined;
    } catch (err) {
      await consumer.disconnect().catch(() => undefined);
      throw err;
    }
    this.subscriptions.add(sub);
    return sub;
  }

  async lag(group: string, topic: string): Promise<PartitionLag[]> {
    const admin = await this.adminClient();
    const [ends, committed] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      admin.fetchOffsets({ groupId: group, topics: [topic] }),
    ]);
    const done = new Map(
      (committed.find((t) => t.topic === topic)?.partitions ?? []).map((p) => [
        p.partition,
        BigInt(p.offset),
      ]),
    );
    return ends.map((e) => {
      const low = BigInt(e.low);
      const c = done.get(e.partition) ?? -1n;
      const from = c < low ? low : c; // -1 = nothing committed: a new group reads from the start
      return { partition: e.partition, lag: Number(BigInt(e.high) - from) };
    });
  }

  /** Deletes the topics this instance created (test and tooling clean-up). */
  async deleteTopicsCreated(): Promise<void> {
    if (this.created.size === 0) return;
    const admin = await this.adminClient();
    await admin.deleteTopics({ topics: [...this.created] });
    this.created.clear();
  }

  async ping(): Promise<void> {
    await (await this.adminClient()).describeCluster();
  }

  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.stop()));
    const clients = [this.producer, this.admin];
    this.producer = this.admin = undefined;
    await Promise.all(
      clients.map(async (c) => {
        // A client whose connect failed (Kafka unreachable) has nothing to disconnect.
        const client = await c?.catch(() => undefined);
        await client?.disconnect();
      }),
    );
  }

  private producerClient(): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner, // Java-compatible murmur2
      });
      await producer.connect();
      return producer;
    })().catch((err: unknown) => {
      this.producer = undefined; // let the next call try again
      throw err;
    });
    return this.producer;
  }

  private adminClient(): Promise<Admin> {
    this.admin ??= (async () => {
      const admin = this.kafka.admin();
      await admin.connect();
      return admin;
    })().catch((err: unknown) => {
      this.admin = undefined;
      throw err;
    });
    return this.admin;
  }
}
