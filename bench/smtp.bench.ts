// `npm run bench:smtp`: the SMTP mailbox probe at bulk scale against the loopback mail world
// (docs/models/email.md, "Test world"): a ~100k-row email job with smtp=true, embedded
// (`verity start`) and distributed (api + ingest + two scorers on Kafka, Bull/Redis, S3Proxy,
// PostgreSQL, the host caps shared in Redis), each against a fresh world; the same file with
// smtp=false in the same run is the baseline its time is compared with. Printed per mode: job
// time and the ratio to the baseline, undeliverable precision, missing mailboxes found,
// existing ones confirmed, addresses wrongly undeliverable, sessions per 1,000 addresses on
// plain domains, the peak sessions per host at once and per minute against the caps, 421s.
//
// Environment: BENCH_SCALE (default 1: 100 plain domains of 1,000 addresses), BENCH_MODES
// (embedded,distributed), BENCH_GREYLIST_S (30). Distributed mode needs scripts/infra/up.sh and
// `source scripts/infra/env.sh`. Defaults of every EMAIL_SMTP_* setting but the port.
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  deliverabilityOf,
  hostFigures,
  MailWorld,
  standardWorld,
  worldFigures,
  type WorldFigures,
} from '@verity/testing';
import { freePort } from '../test/distributed/process-harness';
import { cleanDistributed } from './batch/cleanup';
import { createAccount, runJob, type JobTiming } from './batch/client';
import { startProcess, type BenchProcess } from './batch/processes';

const ADMIN_TOKEN = 'bench-smtp-admin-token-0123456789abcdef';
const scale = Number(process.env.BENCH_SCALE ?? '1');
const modes = (process.env.BENCH_MODES ?? 'embedded,distributed').split(',');
const PLAIN_DOMAINS = Math.max(3, Math.round(100 * scale));
const HOST_CAP = 5;
const HOST_PER_MINUTE = 30;
const JOB_TIMEOUT_MS = 60 * 60_000;

/** What one mode measured. */
interface ModeResult {
  mode: string;
  probe: JobTiming;
  baseline: JobTiming;
  figures: WorldFigures;
  plain: ReturnType<typeof hostFigures>;
  peakConcurrent: number;
  peakPerMinute: number;
  refused421: number;
}

function newWorld(): Promise<MailWorld> {
  return MailWorld.start(
    standardWorld({
      plainDomains: PLAIN_DOMAINS,
      perPlainDomain: 1_000,
      perSpecialDomain: 50,
      greylistMs: Number(process.env.BENCH_GREYLIST_S ?? '30') * 1_000,
      tarpitMs: 40_000,
      limited: { maxConcurrent: 2, maxPerWindow: 12, windowMs: 60_000 },
    }),
  );
}

async function createDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `verity_bench_smtp_${randomBytes(5).toString('hex')}`;
  const run = async (sql: string) => {
    const c = new Client({ connectionString: admin });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

function envFor(world: MailWorld, dbUrl: string, home: string): Record<string, string> {
  return {
    NODE_ENV: 'production',
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    VERITY_HOME: home,
    DATABASE_URL: dbUrl,
    DNS_SERVERS: world.dnsServers,
    ADMIN_TOKEN,
    RATE_LIMIT_PER_SECOND: '100000',
    RATE_LIMIT_BURST: '100000',
    SIGNING_SECRET: 'bench-smtp-signing-secret-0123456789abcdef',
    SHUTDOWN_TIMEOUT_MS: '15000',
    DATA_REFRESH_INTERVAL: 'off',
    EMAIL_SMTP_PROBE: 'per_job',
    EMAIL_SMTP_PORT: String(world.port),
    EMAIL_SMTP_ALLOW_PRIVATE: 'true',
    EMAIL_SMTP_CANARY_DOMAIN: 'truth0-world.com',
    DNS_CANARY_DOMAINS: 'truth0-world.com',
  };
}

/** The job with smtp=true, then the same file with smtp=false, and the world's figures. */
async function measure(
  mode: string,
  world: MailWorld,
  base: string,
  key: string,
  file: string,
): Promise<ModeResult> {
  const probe = await runJob(base, key, 'email', file, JOB_TIMEOUT_MS, { smtp: 'true' });
  const csv = await (await fetch(probe.resultUrl)).text();
  const figures = worldFigures(world, deliverabilityOf(csv));
  const stats = Object.values(world.stats());
  const result = {
    mode,
    probe,
    baseline: await runJob(base, key, 'email', file, JOB_TIMEOUT_MS, { smtp: 'false' }),
    figures,
    plain: hostFigures(world, 'truthful'),
    peakConcurrent: Math.max(...stats.map((s) => s.peakConcurrent)),
    peakPerMinute: Math.max(...stats.map((s) => s.peakPerWindow)),
    refused421: stats.reduce((n, s) => n + s.refused421, 0),
  };
  print(result);
  return result;
}

async function embedded(work: string): Promise<ModeResult> {
  const world = await newWorld();
  const db = await createDatabase();
  let proc: BenchProcess | undefined;
  try {
    const file = await writeInput(world, work);
    const env = { ...envFor(world, db.url, join(work, 'home-embedded')) };
    proc = await startProcess('verity', 'verity-start', env, work);
    const base = `http://127.0.0.1:${proc.port}`;
    const key = await createAccount(base, ADMIN_TOKEN, 10_000_000);
    return await measure('embedded', world, base, key, file);
  } finally {
    await proc?.stop();
    await db.drop();
    await world.stop();
  }
}

async function distributed(work: string): Promise<ModeResult> {
  const world = await newWorld();
  const db = await createDatabase();
  const namespace = `benchsmtp${randomBytes(4).toString('hex')}`;
  const apiPort = await freePort();
  const env = {
    ...envFor(world, db.url, join(work, 'home-distributed')),
    PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
    ROW_BUS: 'kafka',
    JOB_QUEUE: 'bull',
    BLOB_STORE: 's3',
    BATCH_NAMESPACE: namespace,
  };
  const procs: BenchProcess[] = [];
  const ids: string[] = [];
  try {
    const file = await writeInput(world, work);
    procs.push(await startProcess('api', 'api', env, work, undefined, apiPort));
    procs.push(await startProcess('ingest', 'ingest', env, work));
    procs.push(await startProcess('scorer', 'scorer-a', env, work));
    procs.push(await startProcess('scorer', 'scorer-b', env, work));
    const base = `http://127.0.0.1:${apiPort}`;
    const key = await createAccount(base, ADMIN_TOKEN, 10_000_000);
    const result = await measure('distributed (2 scorers)', world, base, key, file);
    ids.push(result.probe.id, result.baseline.id);
    return result;
  } finally {
    for (const p of procs.reverse()) await p.stop();
    for (const note of await cleanDistributed(namespace, env, ids)) console.log(note);
    await db.drop();
    await world.stop();
  }
}

async function writeInput(world: MailWorld, work: string): Promise<string> {
  const path = join(work, `smtp-${randomBytes(3).toString('hex')}.csv`);
  await writeFile(
    path,
    `${world
      .shuffled(50)
      .map((a) => a.address)
      .join('\n')}\n`,
  );
  return path;
}

const pct = (x: number) => `${(x * 100).toFixed(2)} %`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function print(r: ModeResult): void {
  const f = r.figures;
  console.log(
    [
      `${r.mode}: ${f.addresses.toLocaleString('en-US')} rows`,
      `  job with smtp=true ${s(r.probe.totalMs)} (scored ${s(r.probe.scoredMs)}); same file smtp=false ${s(r.baseline.totalMs)}: ratio ${(r.probe.totalMs / r.baseline.totalMs).toFixed(1)}×`,
      `  undeliverable precision ${pct(f.undeliverablePrecision)}, missing found ${pct(f.missingFound)}, existing confirmed ${pct(f.existingConfirmed)}, wrongly undeliverable ${f.wronglyUndeliverable}`,
      `  sessions per 1,000 addresses on plain domains ${r.plain.sessionsPer1000.toFixed(1)}`,
      `  peak sessions per host at once ${r.peakConcurrent} (cap ${HOST_CAP}), per minute ${r.peakPerMinute} (cap ${HOST_PER_MINUTE}); 421s ${r.refused421}`,
      `  answers by host behaviour ${JSON.stringify(f.byBehaviour)}`,
    ].join('\n'),
  );
}

async function main(): Promise<void> {
  console.log(
    `bench:smtp on ${cpus().length} cores, load average ${loadavg()[0].toFixed(2)} at start; ${PLAIN_DOMAINS} plain domains`,
  );
  const work = await mkdtemp(join(tmpdir(), 'verity-bench-smtp-'));
  const results: ModeResult[] = [];
  try {
    if (modes.includes('embedded')) results.push(await embedded(work));
    if (modes.includes('distributed')) results.push(await distributed(work));
  } catch (error) {
    // The processes' logs say why a job could not run.
    for (const name of (await readdir(work)).filter((n) => n.endsWith('.log'))) {
      const text = await readFile(join(work, name), 'utf8');
      console.error(`--- ${name} (last lines)\n${text.split('\n').slice(-30).join('\n')}`);
    }
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const met = results.every(
    (r) =>
      r.figures.wronglyUndeliverable === 0 &&
      r.figures.missingFound >= 0.99 &&
      r.figures.existingConfirmed >= 0.99 &&
      r.plain.sessionsPer1000 <= 100 &&
      r.peakConcurrent <= HOST_CAP &&
      r.peakPerMinute <= HOST_PER_MINUTE,
  );
  console.log(`targets ${met ? 'met' : 'NOT met'}; load average ${loadavg()[0].toFixed(2)} at end`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
