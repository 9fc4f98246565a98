import { KafkaRowBus } from '../adapters/kafka.row-bus';
import { MemoryRowBus } from '../adapters/memory.row-bus';
import { backendGate, rowBusContract } from '@verity/testing';

rowBusContract('memory', {
  create: () => Promise.resolve(new MemoryRowBus()),
  dispose: (bus) => bus.close(),
});

const kafka = backendGate('KAFKA_BROKERS');
rowBusContract(
  'kafka',
  {
    create: () =>
      Promise.resolve(
        new KafkaRowBus({
          brokers: (process.env.KAFKA_BROKERS ?? '').split(','),
          clientId: 'verity-contract',
          // Short timeouts keep group joins and take-overs quick in tests.
          sessionTimeoutMs: 6_000,
          rebalanceTimeoutMs: 10_000,
          heartbeatIntervalMs: 300,
          maxWaitTimeMs: 200,
        }),
      ),
    dispose: async (bus) => {
      await bus.deleteTopicsCreated();
      await bus.close();
    },
  },
  { skip: kafka.skip },
);
