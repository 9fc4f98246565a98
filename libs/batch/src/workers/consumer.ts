import type { Logger } from '@nestjs/common';
import type { VerityMetrics } from '@verity/observability';
import type { MessageHandler, RowBus, Subscription } from '../ports/row-bus.port';
import { watchLag } from './lag-source';

/** How a worker joins its topic. */
export interface ConsumerOptions {
  bus: RowBus;
  metrics: VerityMetrics | null;
  group: string;
  topic: string;
  partitions: number;
  concurrency: number;
  log: Logger;
  /** What one message is, for log lines ("chunk", "progress"). */
  what: string;
  handle: MessageHandler;
}

/**
 * Ensures the topic, joins the group (at-least-once: a failing handler is retried and logged),
 * and reports the group's lag in `verity_kafka_consumer_lag`. Stop the subscription on shutdown.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { bus, group, topic, log, what } = options;
  await bus.ensureTopic(topic, options.partitions);
  const subscription = await bus.consume(group, topic, options.handle, {
    concurrency: options.concurrency,
    onHandlerError: (error, msg, attempt) =>
      log.warn(
        `${what} ${msg.partition}/${msg.offset} failed (attempt ${attempt}): ${String(error)}`,
      ),
  });
  watchLag(options.metrics, bus, group, topic);
  return subscription;
}
