import { KafkaRowBus } from '../adapters/kafka.row-bus';
import { MemoryRowBus } from '../adapters/memory.row-bus';
import { backendGate, rowBusContract } from '@verity/testing';

rowBusContract('memory', {
  create: () => Promise.resolve(new MemoryRowBus()),
  dispose: (bus) => bus.close(),
});

// The same contract with a backlog so small that publishes wait for the consumers.
rowBusContract('memory, 256 KiB backlog', {
  create: () => Promise.resolve(new MemoryRowBus(256 * 1024)),
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
