import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Kafka, logLevel } from 'kafkajs';
import { backendGate } from '@verity/testing';
import { defaultReplicationFactor, KafkaRowBus } from './kafka.row-bus';

describe('default replication factor of created topics', () => {
  it('is three copies where the cluster has them, else one per broker', () => {
    assert.deepEqual([1, 2, 3, 4, 9].map(defaultReplicationFactor), [1, 2, 3, 3, 3]);
  });
});

const kafka = backendGate('KAFKA_BROKERS');
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',');

describe('topics the Kafka row bus creates', { skip: kafka.skip }, () => {
  const buses: KafkaRowBus[] = [];
  const bus = (replicationFactor?: number) => {
    const b = new KafkaRowBus({ brokers, clientId: 'verity-test-topics', replicationFactor });
    buses.push(b);
    return b;
  };
  const admin = new Kafka({
    brokers,
    clientId: 'verity-test-topics',
    logLevel: logLevel.NOTHING,
  }).admin();

  after(async () => {
    for (const b of buses) {
      await b.deleteTopicsCreated();
      await b.close();
    }
    await admin.disconnect();
  });

  it('get the partitions asked for and min(3, brokers) replicas', async () => {
    const topic = `verity-test-topics-${randomUUID()}`;
    await bus().ensureTopic(topic, 3);
    await admin.connect();
    const cluster = await admin.describeCluster();
    const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    assert.equal(meta.partitions.length, 3);
    const expected = defaultReplicationFactor(cluster.brokers.length);
    for (const p of meta.partitions) assert.equal(p.replicas.length, expected);
  });

  it('ask the broker for the configured factor, so more copies than brokers is refused', async () => {
    await admin.connect();
    const cluster = await admin.describeCluster();
    const topic = `verity-test-topics-${randomUUID()}`;
    await assert.rejects(bus(cluster.brokers.length + 1).ensureTopic(topic, 1), (error: unknown) =>
      protocolErrors(error).includes('INVALID_REPLICATION_FACTOR'),
    );
    assert.ok(!(await admin.listTopics()).includes(topic));
  });
});

/** The Kafka protocol error types in a kafkajs error (an aggregate or a wrapped one). */
function protocolErrors(error: unknown): string[] {
  if (typeof error !== 'object' || error === null) return [];
  const e = error as { type?: unknown; errors?: unknown; originalError?: unknown };
  return [
    ...(typeof e.type === 'string' ? [e.type] : []),
    ...(Array.isArray(e.errors) ? e.errors.flatMap(protocolErrors) : []),
    ...protocolErrors(e.originalError),
  ];
}
