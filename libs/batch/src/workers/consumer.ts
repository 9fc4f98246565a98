import type { Logger } from '@nestjs/common';
import type { VerityMetrics } from '@verity/observability';
import type { MessageHandler, RowBus, Subscription } from '@verity/ports';
import { watchLag } from './lag-source';
import type { OutageWatch } from './outage-watch';

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
  /** Pauses the consumer while it reports an outage; told every handler's outcome. */
  outage: OutageWatch;
}

/**
 * Ensures the topic, joins the group (at-least-once: a failing handler is retried and logged),
 * and reports the group's lag in `verity_kafka_consumer_lag`. While `outage` reports a
 * dependency outage the consumer is paused (handlers in flight keep retrying in place and the
 * first to succeed resumes it) and their failures are not logged one by one: the watch logs
 * the outage's beginning and end. Stop the subscription on shutdown.
 */
export async function startConsumer(options: ConsumerOptions): Promise<Subscription> {
  const { bus, group, topic, log, what, outage } = options;
  await bus.ensureTopic(topic, options.partitions);
  const handle: MessageHandler = async (msg) => {
    try {
      await options.handle(msg);
    } catch (error) {
      outage.failed(error);
      throw error;
    }
    outage.succeeded();
  };
  const subscription = await bus.consume(group, topic, handle, {
    concurrency: options.concurrency,
    onHandlerError: (error, msg, attempt) => {
      if (outage.waiting && outage.waitsOut(error)) return;
      log.warn(
        `${what} ${msg.partition}/${msg.offset} failed (attempt ${attempt}): ${String(error)}`,
      );
    },
  });
  outage.listen((waiting) => (waiting ? subscription.pause() : subscription.resume()));
  watchLag(options.metrics, bus, group, topic);
  return subscription;
}
