import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import 'reflect-metadata';
import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import {
  APP_CONFIG,
  BATCH_CONFIG,
  CONFIG_TOKENS,
  CORE_CONFIG,
  loadConfig,
  type BatchConfig,
  type CoreConfig,
} from '@verity/config';
import { CoreModule } from './core.module';

@Injectable()
class SectionReader {
  constructor(
    @Inject(BATCH_CONFIG) readonly batch: BatchConfig,
    @Inject(CORE_CONFIG) readonly core: CoreConfig,
  ) {}
}

describe('CoreModule', () => {
  it('gives APP_CONFIG and every section token the one validated config', async () => {
    const config = loadConfig({ NODE_ENV: 'test', BATCH_CHUNK_ROWS: '250', PORT: '9090' });
    @Module({
      imports: [
        CoreModule.forRoot({
          config,
          dataSource: new DataSource({ type: 'postgres' }),
          metrics: null,
        }),
      ],
      providers: [SectionReader],
    })
    class Host {}
    const app = await NestFactory.createApplicationContext(Host, {
      logger: false,
      abortOnError: false,
    });
    try {
      assert.equal(new Set(CONFIG_TOKENS).size, CONFIG_TOKENS.length);
      assert.ok(CONFIG_TOKENS.includes(APP_CONFIG));
      for (const token of CONFIG_TOKENS) assert.equal(app.get(token), config, String(token));
      const reader = app.get(SectionReader);
      assert.equal(reader.batch.BATCH_CHUNK_ROWS, 250);
      assert.equal(reader.core.PORT, 9090);
    } finally {
      await app.close();
    }
  });
});
