export { TestClient, type TestResponse } from './http-client';
export { createTestDatabase, type TestDatabase } from './test-database';
export { startTestDns } from './test-dns';
export { startTestStack, ADMIN_TOKEN, type TestStack, type TestStackOptions } from './test-stack';
export { parseScrape, total, seriesNames, type Scrape, type Sample } from './prometheus-text';
export { backendGate } from './backend-gate';
