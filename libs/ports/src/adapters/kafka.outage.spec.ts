import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
} from 'kafkajs';
import { infraOutageOf } from '@verity/common';
import { KafkaRowBus } from './kafka.row-bus';

describe('the outage errors of the Kafka row bus', () => {
  // The adapter makes its errors known when it is built; it connects only when first used.
  const bus = new KafkaRowBus({ brokers: ['127.0.0.1:1'], clientId: 'outage-probe' });
  after(() => bus.close());

  it('retriable kafkajs errors are outages of kafka, also when the retrier gave up on one', () => {
    const lost = new KafkaJSConnectionError('Connection error', { broker: '127.0.0.1:1' });
    assert.equal(infraOutageOf(lost), 'kafka');
    const exhausted = new KafkaJSNumberOfRetriesExceeded(lost, { retryCount: 5, retryTime: 100 });
    assert.equal(infraOutageOf(exhausted), 'kafka');
    const leaderMoved = new KafkaJSProtocolError({
      message: 'This server is not the leader for that topic-partition',
      type: 'NOT_LEADER_FOR_PARTITION',
      code: 6,
      retriable: true,
    } as unknown as Error);
    assert.equal(infraOutageOf(leaderMoved), 'kafka');
  });

  it('non-retriable kafkajs errors are not outages', () => {
    assert.equal(infraOutageOf(new KafkaJSNonRetriableError('bad message')), null);
    const tooLarge = new KafkaJSProtocolError({
      message: 'The request included a message larger than the max message size',
      type: 'MESSAGE_TOO_LARGE',
      code: 10,
      retriable: false,
    } as unknown as Error);
    assert.equal(infraOutageOf(tooLarge), null);
  });
});
