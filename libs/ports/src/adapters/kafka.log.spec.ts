import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { backendGate } from '@verity/testing';
import type { Subscription } from '../ports/row-bus.port';
import { logLevel } from 'kafkajs';
import { kafkaEntryLevel } from './kafka.log';
import { KafkaRowBus } from './kafka.row-bus';

interface Line {
  level: number;
  msg: string;
  component?: string;
  namespace?: string;
  kafka_error?: string;
  groupId?: string;
}

/** A pino logger at info whose JSON lines land in `lines`. */
function memoryLogger(): { logger: pino.Logger; lines: Line[] } {
  const lines: Line[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()) as Line);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** A kafkajs log entry as its logger builds it (fields copied from real entries). */
function entry(level: logLevel, namespace: string, message: string, extra: object = {}) {
  const log = { timestamp: new Date().toISOString(), logger: 'kafkajs', message, ...extra };
  return { level, namespace, label: logLevel[level], log };
}

describe('kafkajs entry levels', () => {
  it('puts group membership at info, other retriable protocol errors at warn, the rest as kafkajs does', () => {
    const rebalancing = { error: 'The group is rebalancing, so a rejoin is needed' };
    assert.deepEqual(
      kafkaEntryLevel(
        entry(logLevel.ERROR, 'Connection', 'Response Heartbeat(key: 12, version: 3)', rebalancing),
      ),
      { level: 'info', errorType: 'REBALANCE_IN_PROGRESS' },
    );
    assert.deepEqual(
      kafkaEntryLevel(
        entry(logLevel.WARN, 'Runner', 'The group is rebalancing, re-joining', rebalancing),
      ),
      { level: 'info', errorType: 'REBALANCE_IN_PROGRESS' },
    );
    assert.deepEqual(
      kafkaEntryLevel(
        entry(logLevel.ERROR, 'Connection', 'Response Metadata(key: 3, version: 6)', {
          error:
            'There is no leader for this topic-partition as we are in the middle of a leadership election',
        }),
      ),
      { level: 'warn', errorType: 'LEADER_NOT_AVAILABLE' },
    );
    assert.deepEqual(
      kafkaEntryLevel(
        entry(logLevel.ERROR, 'Connection', 'Response Produce(key: 0, version: 7)', {
          error: 'Not authorized to access topics: [Topic authorization failed]',
        }),
      ),
      { level: 'error', errorType: 'TOPIC_AUTHORIZATION_FAILED' },
    );
    assert.deepEqual(
      kafkaEntryLevel(
        entry(logLevel.ERROR, 'Connection', 'Connection error: connect ECONNREFUSED 127.0.0.1:1', {
          broker: '127.0.0.1:1',
        }),
      ),
      { level: 'error', errorType: undefined },
    );
    assert.deepEqual(
      kafkaEntryLevel(entry(logLevel.INFO, 'ConsumerGroup', 'Consumer has joined the group')),
      { level: 'info', errorType: undefined },
    );
  });
});

const kafka = backendGate('KAFKA_BROKERS');
const brokers = (process.env.KAFKA_BROKERS ?? '').split(',');

/** Timings as the row-bus contract uses them: quick joins and rebalances. */
const timing = { sessionTimeoutMs: 6_000, rebalanceTimeoutMs: 10_000, heartbeatIntervalMs: 300 };

describe('kafkajs logs through pino', { skip: kafka.skip }, () => {
  const topic = `verity-test-kafka-log-${randomUUID()}`;
  const admin = new KafkaRowBus({ brokers, clientId: 'verity-test-admin', ...timing });
  const { logger, lines } = memoryLogger();
  const members = [1, 2].map(
    (n) => new KafkaRowBus({ brokers, clientId: `verity-test-member-${n}`, logger, ...timing }),
  );
  const subscriptions: Subscription[] = [];

  after(async () => {
    await Promise.all(subscriptions.map((s) => s.stop()));
    await Promise.all(members.map((m) => m.close()));
    await admin.deleteTopicsCreated();
    await admin.close();
  });

  it('logs a group join and the rebalance a second member causes at info, in the JSON shape', async () => {
    await admin.ensureTopic(topic, 2);
    const group = `verity-test-kafka-log-${randomUUID()}`;
    const handler = () => Promise.resolve();
    // The second member joining makes the coordinator rebalance the first one.
    for (const member of members) subscriptions.push(await member.consume(group, topic, handler));

    const kafkajs = lines.filter((l) => l.component === 'kafkajs');
    const joined = kafkajs.filter((l) => /joined the group/.test(l.msg) && l.groupId === group);
    assert.equal(joined.length >= 2, true, JSON.stringify(kafkajs));
    for (const line of kafkajs) {
      assert.equal(typeof line.namespace, 'string');
      assert.equal(typeof line.msg, 'string');
      assert.ok(line.level <= 30, `above info: ${JSON.stringify(line)}`);
    }
    // kafkajs reported these protocol answers at ERROR (every response error) or WARN.
    const membership = kafkajs.filter((l) => l.kafka_error !== undefined);
    assert.ok(
      membership.some((l) => l.kafka_error === 'REBALANCE_IN_PROGRESS'),
      JSON.stringify(membership),
    );
  });
});
