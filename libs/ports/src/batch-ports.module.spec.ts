import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import 'reflect-metadata';
import { Global, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { CONFIG_TOKENS, configProviders, loadConfig } from '@verity/config';
import { HealthRegistry } from '@verity/platform';
import { LocalBlobStore } from './adapters/local.blob-store';
import { MemoryJobQueue } from './adapters/memory.job-queue';
import { MemoryRowBus } from './adapters/memory.row-bus';
import { BatchPortsModule, BLOB_STORE, JOB_QUEUE, ROW_BUS } from './batch-ports.module';
import type { BlobStore } from './ports/blob-store.port';

describe('BatchPortsModule', () => {
  it('provides the ports chosen by config and closes them on shutdown', async () => {
    const home = await mkdtemp(join(tmpdir(), 'verity-home-'));
    const config = loadConfig({ VERITY_HOME: home, NODE_ENV: 'test' });
    @Global() // as the host's CoreModule is
    @Module({
      providers: [...configProviders(config), HealthRegistry],
      exports: [...CONFIG_TOKENS, HealthRegistry],
    })
    class ConfigHost {}
    @Module({ imports: [ConfigHost, BatchPortsModule.forRoot()] })
    class Host {}
    const app = await NestFactory.createApplicationContext(Host, {
      logger: false,
      abortOnError: false,
    });
    try {
      assert.ok(app.get(ROW_BUS) instanceof MemoryRowBus);
      assert.ok(app.get(JOB_QUEUE) instanceof MemoryJobQueue);
      const blobs = app.get<BlobStore>(BLOB_STORE);
      assert.ok(blobs instanceof LocalBlobStore);
      await blobs.put('jobs/1/input.csv', Buffer.from('email\n'));
      assert.deepEqual(await blobs.head('jobs/1/input.csv'), { size: 6 });
      const readiness = await app.get(HealthRegistry).run();
      assert.equal(readiness.status, 'ready');
      assert.deepEqual(Object.keys(readiness.checks).sort(), [
        'blob_store',
        'job_queue',
        'row_bus',
      ]);
    } finally {
      await app.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
