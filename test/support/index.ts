export { TestClient, type TestResponse } from './http-client';
export { createTestDatabase, type TestDatabase } from './test-database';
export { startTestDns } from './test-dns';
export { startTestStack, ADMIN_TOKEN, type TestStack, type TestStackOptions } from './test-stack';
export { parseScrape, total, seriesNames, type Scrape, type Sample } from './prometheus-text';
export { backendGate } from './backend-gate';
export { BlackHole } from './black-hole';
export { DroppingProxy } from './dropping-proxy';
export { ResetProxy } from './reset-proxy';
export { rawRequest, rawExchange, parseAnswers, type RawAnswer } from './raw-http';
export { ConsoleClient } from './console-client';
export { consoleUser, CONSOLE_PASSWORD } from './console-user';
export { CHROMIUM_PATH, freePort, launchChromium } from './chromium';
export { leasesAtRest } from './credit-leases';
export {
  outageHarnessMissing,
  startDedicatedPostgres,
  startDedicatedRedis,
  startDedicatedS3,
  type StoppableService,
} from './outage-services';
export * from './contracts/blob-store.contract';
export * from './contracts/contract-helpers';
export * from './contracts/history-store.contract';
export * from './contracts/job-queue.contract';
export * from './contracts/rate-limit-store.contract';
export * from './contracts/row-bus.contract';
export * from './dns/loopback-dns.server';
export * from './hlr/hlr-lookups.fake-server';
export * from './ip-data/maxmind-fixtures';
export * from './quality/email.typo.quality';
export * from './properties/fraud.generators';
export * from './history/signup-stream';
export * from './history/detection';
export * from './history/signup-simulation';
export { SeededRandom } from './seeded-random';
export { startHttpProxy, type HttpProxy, type HttpProxyHooks } from './http-proxy';
export * from './contracts/mail-host-limiter.contract';
export * from './smtp/held-job-world';
export * from './smtp/mail-host.server';
export * from './smtp/mail-world';
export * from './smtp/standard-world';
export * from './smtp/world-figures';
export { Socks5Server, type Socks5ServerOptions } from './socks/socks5.server';
