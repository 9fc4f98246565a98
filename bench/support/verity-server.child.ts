// One Verity API instance for the benchmark, booted exactly as the e2e test stack boots it
// (real PostgreSQL, real engines), run as a child process by bench/api.bench.ts so the load
// generator never shares its event loop. Configuration comes from this process's environment.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AccountsService } from '@verity/accounts';
import { loadConfig } from '@verity/config';
import { LoopbackDnsServer } from '@verity/testing';
import { createMetrics } from '@verity/observability';
import { buildEngines, createLogger, openDatabaseRuntime } from '@verity/platform';
import { createApiApp } from '../../apps/api/src/create-api-app';
import { BENCH_DOMAINS } from './bench-inputs';
import {
  isAllocationsRequest,
  isServerStop,
  isStatsRequest,
  type AllocationsReply,
  type ServerReady,
  type StatsReply,
} from './server-protocol';
import { AllocationSampler } from './allocation-sampler';
import { serveStallRequests } from './stall-monitor';
import { countStatements } from './statement-counter';

const statements = countStatements();

async function main(): Promise<void> {
  // Every domain the benchmark mails resolves on 127.0.0.1: nothing leaves the machine.
  const zone: Record<string, { MX?: { exchange: string; preference: number }[]; A?: string[] }> =
    {};
  for (const d of BENCH_DOMAINS) {
    zone[d] = { MX: [{ exchange: `mx.${d}`, preference: 10 }] };
    zone[`mx.${d}`] = { A: ['127.0.0.1'] };
  }
  const dns = new LoopbackDnsServer({ zone });
  const dnsAddress = await dns.start();
  const home = await mkdtemp(join(tmpdir(), 'verity-bench-home-'));
  const config = loadConfig({
    // A benchmark measures the service, not downloads from the Internet.
    DATA_REFRESH_INTERVAL: 'off',
    ...process.env,
    VERITY_HOME: home,
    DNS_SERVERS: `${dnsAddress.host}:${dnsAddress.port}`,
  });
  const logger = createLogger(config, 'verity-bench');
  const db = await openDatabaseRuntime(config, logger);
  const metrics = config.METRICS_ENABLED ? createMetrics() : null;
  const engines = await buildEngines(config, metrics, logger);
  const app = await createApiApp({
    resources: { config, dataSource: db.dataSource, metrics },
    engines: engines.engines,
    logger,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.getHttpServer().address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // BENCH_API_KEY: serve an account another instance created (two instances, one account).
  const credits = Number(process.env.BENCH_CREDITS ?? 1_000_000_000);
  const apiKey =
    process.env.BENCH_API_KEY ??
    (await app.get(AccountsService).create(`bench-${process.pid}`, credits)).api_key;

  let stopping = false;
  let sampler: AllocationSampler | null = null;
  process.on('message', (message) => {
    if (isStatsRequest(message)) {
      process.send?.({ type: 'stats', statements: statements() } satisfies StatsReply);
      return;
    }
    if (isAllocationsRequest(message)) {
      void answerAllocations(message.on).then((reply) => process.send?.(reply));
      return;
    }
    if (!isServerStop(message) || stopping) return;
    stopping = true;
    void (async () => {
      await app.close();
      await engines.close();
      await db.close();
      await dns.stop();
      await rm(home, { recursive: true, force: true });
      process.exit(0);
    })();
  });
  async function answerAllocations(on: boolean): Promise<AllocationsReply> {
    if (on) {
      sampler = new AllocationSampler();
      await sampler.start();
      return { type: 'allocations', on };
    }
    const sampled = (await sampler?.stop()) ?? { bytes: 0, sites: [] };
    sampler = null;
    return { type: 'allocations', on, ...sampled };
  }
  serveStallRequests();
  process.send?.({ type: 'ready', port, apiKey } satisfies ServerReady);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
