// `npm run bench:console`: the console's 30-day usage query on an account with 10 million
// ledger rows (BENCH_LEDGER_ROWS), read from usage_hourly, against the same answer computed by
// scanning the ledger (the baseline, measured in the same run).
import { performance } from 'node:perf_hooks';
import { UsageRepository } from '@verity/accounts';
import { loadConfig } from '@verity/config';
import { createLogger, openDatabaseRuntime } from '@verity/platform';
import { provisionBenchDatabase } from './support/bench-database';

const ROWS = Number(process.env.BENCH_LEDGER_ROWS ?? 10_000_000);
const STEP = 1_000_000;
const RUNS = 50;
const OPERATIONS = ['email_validate', 'phone_validate', 'ip_intel', 'verify', 'batch_row'];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function main(): Promise<void> {
  const database = await provisionBenchDatabase();
  console.log(`database: ${database.description}`);
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'warn' });
  const runtime = await openDatabaseRuntime(config, createLogger(config, 'bench-console'));
  const db = runtime.dataSource;
  try {
    const [account] = await db.query<{ id: string }[]>(
      `INSERT INTO accounts (name, credits_balance, webhook_secret) VALUES ('bench', 0, 'x') RETURNING id`,
    );
    const keys = await db.query<{ id: string }[]>(
      `INSERT INTO api_keys (account_id, name, lookup_id, key_hash)
       SELECT $1, 'key' || g, 'bench' || g || md5(random()::text), '\\x00'
       FROM generate_series(1, 4) g RETURNING id`,
      [account.id],
    );
    const started = performance.now();
    // Bulk load only: skip the per-row foreign-key triggers (the rows reference one account
    // that exists); needs a superuser, as the local test server's postgres is.
    const loader = db.createQueryRunner();
    await loader.connect();
    await loader.query(`SET session_replication_role = replica`);
    // Ten million debits spread over the last 30 days, 4 keys and 5 operations.
    for (let from = 0; from < ROWS; from += STEP) {
      await loader.query(
        `INSERT INTO credit_ledger (account_id, delta, reason, reference, balance_after, key_id, created_at)
         SELECT $1, -1, ($2::text[])[1 + g % 5], NULL, 0, ($3::uuid[])[1 + g % 4],
                now() - make_interval(secs => (g * 7919) % (30 * 86400))
         FROM generate_series($4::bigint, $5::bigint) g`,
        [account.id, OPERATIONS, keys.map((k) => k.id), from, Math.min(from + STEP, ROWS) - 1],
      );
      process.stdout.write(`\rledger rows: ${Math.min(from + STEP, ROWS).toLocaleString('en-US')}`);
    }
    await loader.release();
    // What the debits' transactions would have rolled up, hour by hour.
    await db.query(
      `INSERT INTO usage_hourly (account_id, hour, operation, key_id, calls, credits)
       SELECT account_id, date_trunc('hour', created_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
              reason, key_id, count(*), sum(-delta)
       FROM credit_ledger WHERE account_id = $1 GROUP BY 1, 2, 3, 4`,
      [account.id],
    );
    await db.query('ANALYZE credit_ledger');
    await db.query('ANALYZE usage_hourly');
    const [{ n }] = await db.query<{ n: string }[]>(
      'SELECT count(*) AS n FROM usage_hourly WHERE account_id = $1',
      [account.id],
    );
    console.log(
      `\nloaded ${ROWS.toLocaleString('en-US')} ledger rows (${n} usage_hourly rows) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );

    const usage = new UsageRepository(db);
    await usage.daily(account.id, 30);
    const times: number[] = [];
    let calls = 0;
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const rows = await usage.daily(account.id, 30);
      times.push(performance.now() - t0);
      calls = rows.reduce((s, r) => s + r.calls, 0);
    }
    const keyed: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      await usage.daily(account.id, 30, keys[0].id);
      keyed.push(performance.now() - t0);
    }

    // Baseline: the same chart computed from the ledger itself.
    const scans: number[] = [];
    let scanned = 0;
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      const rows = await db.query<{ calls: string }[]>(
        `SELECT to_char(date_trunc('day', created_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, reason,
                count(*) AS calls, sum(-delta) AS credits
         FROM credit_ledger
         WHERE account_id = $1
           AND created_at >= (date_trunc('day', now() AT TIME ZONE 'UTC') - interval '29 days') AT TIME ZONE 'UTC'
         GROUP BY 1, 2`,
        [account.id],
      );
      scans.push(performance.now() - t0);
      scanned = rows.reduce((s, r) => s + Number(r.calls), 0);
    }
    const ms = median(times);
    const scanMs = median(scans);
    console.log(
      `usage query, 30 days, all keys:  median ${ms.toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms over ${RUNS} runs (${calls.toLocaleString('en-US')} calls in the window)`,
    );
    console.log(
      `usage query, 30 days, one key:   median ${median(keyed).toFixed(2)} ms over ${RUNS} runs`,
    );
    console.log(
      `baseline, same chart from the ledger: median ${scanMs.toFixed(0)} ms over 3 runs (${scanned.toLocaleString('en-US')} calls)`,
    );
    console.log(
      `ratio: usage_hourly is ${(scanMs / ms).toFixed(0)}x faster than scanning the ledger`,
    );
  } finally {
    await runtime.close();
    await database.drop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
