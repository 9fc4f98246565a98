import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client } from 'pg';
import type { DataSource } from 'typeorm';
import { InfraOutage, infraOutageOf } from '@verity/common';
import { createTestDatabase, freePort, ResetProxy, type TestDatabase } from '@verity/testing';
import { openDatabase } from './data-source.factory';

/** `url` with its host and port replaced by 127.0.0.1:`port`. */
function viaPort(url: string, port: number): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(port);
  return u.toString();
}

async function failure(work: Promise<unknown>): Promise<unknown> {
  return work.then(
    () => assert.fail('expected a failure'),
    (error: unknown) => error,
  );
}

describe('PostgreSQL outage errors (the data source of openDatabase)', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  before(async () => {
    database = await createTestDatabase();
    dataSource = await openDatabase(database.url, 4);
  });
  after(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('a server that refuses the connection is an outage of postgres, not of the network', async () => {
    const error = await failure(openDatabase(viaPort(database.url, await freePort()), 2));
    assert.ok(error instanceof InfraOutage, String(error));
    assert.equal(infraOutageOf(error), 'postgres');
    assert.match((error as Error).message, /^postgres unavailable: connect ECONNREFUSED/);
  });

  it('a connection reset under a statement is an outage of postgres', async () => {
    const proxy = await ResetProxy.start(Number(new URL(database.url).port || 5432));
    const viaProxy = await openDatabase(viaPort(database.url, proxy.port), 2);
    const admin = new Client({ connectionString: database.url });
    await admin.connect();
    try {
      const statement = failure(viaProxy.query('SELECT pg_sleep(30)'));
      // Reset once the statement runs on the server, so the client is waiting for its answer.
      for (;;) {
        const running = await admin.query(
          "SELECT 1 FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)' AND state = 'active'",
        );
        if (running.rowCount) break;
        await sleep(20);
      }
      proxy.resetAll();
      const error = await statement;
      assert.equal((error as { code?: unknown }).code, 'ECONNRESET', String(error));
      assert.equal(infraOutageOf(error), 'postgres');
    } finally {
      await admin.query(
        "SELECT pg_cancel_backend(pid) FROM pg_stat_activity WHERE query = 'SELECT pg_sleep(30)'",
      );
      await admin.end();
      await viaProxy.destroy();
      await proxy.close();
    }
  });

  it("the server's outage states are outages: its connection terminated by an administrator", async () => {
    // A pool of its own: the terminated connection goes back to it before pg sees it closed.
    const own = await openDatabase(database.url, 2);
    try {
      const error = await failure(own.query('SELECT pg_terminate_backend(pg_backend_pid())'));
      assert.equal((error as { code?: unknown }).code, '57P01', String(error));
      assert.equal(infraOutageOf(error), 'postgres');
    } finally {
      await own.destroy();
    }
  });

  it('a wrong statement or a broken constraint is not an outage', async () => {
    const syntax = await failure(dataSource.query('SELEC 1'));
    assert.equal((syntax as { code?: unknown }).code, '42601', String(syntax));
    assert.equal(infraOutageOf(syntax), null);
    await dataSource.query('CREATE TABLE outage_probe (id int PRIMARY KEY)');
    await dataSource.query('INSERT INTO outage_probe VALUES (1)');
    const duplicate = await failure(dataSource.query('INSERT INTO outage_probe VALUES (1)'));
    assert.equal((duplicate as { code?: unknown }).code, '23505');
    assert.equal(infraOutageOf(duplicate), null);
  });
});
