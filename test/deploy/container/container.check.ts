// The container test (docs/operations.md, "The image"): the image built from the Dockerfile,
// run as api + ingest + scorer containers (read-only, uid 1000, `--network host`) on the CI
// machine's PostgreSQL, Redis, Kafka and S3Proxy. Run by test/deploy/container/run.sh (never by
// `npm test`: it needs root, podman and a built image): `node --test <this file>`.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { batchNames } from '@verity/batch';
import { createTestDatabase, freePort, TestClient, type TestDatabase } from '@verity/testing';
import { deployableCommand, repoRoot, type DeployableApp } from '../deploy-files';
import { download, postBatch, waitForJob } from '../../e2e/batch-helpers';

const run = promisify(execFile);
const IMAGE = process.env.VERITY_IMAGE ?? 'localhost/verity:ci';
const ADMIN_TOKEN = `ct-admin-${randomBytes(12).toString('hex')}`;
const NAMESPACE = `ct${randomBytes(4).toString('hex')}`;
const BUNDLE = join(repoRoot, 'data', 'ip');

/** `podman …`; rejects with podman's own message. */
async function podman(...args: string[]): Promise<string> {
  try {
    return (await run('podman', args, { maxBuffer: 16 * 1024 * 1024 })).stdout.trim();
  } catch (error) {
    const e = error as { stderr?: string; message: string };
    throw new Error(`podman ${args.slice(0, 2).join(' ')}: ${e.stderr ?? e.message}`, {
      cause: error,
    });
  }
}

const kafkaAdmin = () =>
  new Kafka({
    brokers: (process.env.KAFKA_BROKERS ?? '').split(','),
    clientId: 'verity-container-test',
    logLevel: logLevel.NOTHING,
  }).admin();

/** The first address of the first range of the bundled X4BNet VPN list (data/ip/x4bnet). */
function bundledVpnAddress(): string {
  const first = readFileSync(join(BUNDLE, 'x4bnet', 'output_vpn_ipv4.txt'), 'utf8')
    .split('\n')
    .find((l) => /^\d+\.\d+\.\d+\.\d+\/\d+$/.test(l.trim()));
  assert.ok(first, 'the bundled VPN list has an IPv4 range');
  const [a, b, c, d] = first.split('/')[0].split('.').map(Number);
  return [a, b, c, d + 1].join('.');
}

/**
 * The open-data sources on loopback, so the api's in-service refresh runs as in production
 * without leaving 127.0.0.1: the Tor exits and a cloud range file, and the X4BNet lists as
 * the repository bundles them.
 */
async function startListServer(): Promise<{ server: Server; base: string }> {
  const x4b: Record<string, string> = {
    '/x4bnet/output/vpn/ipv4.txt': 'output_vpn_ipv4.txt',
    '/x4bnet/output/vpn/ipv6.txt': 'output_vpn_ipv6.txt',
    '/x4bnet/output/datacenter/ipv4.txt': 'output_datacenter_ipv4.txt',
    '/x4bnet/output/datacenter/ipv6.txt': 'output_datacenter_ipv6.txt',
    '/x4bnet/input/datacenter/ASN.txt': 'input_datacenter_ASN.txt',
  };
  const server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/tor/torbulkexitlist') return res.end('185.220.101.1\n185.220.101.2\n');
    if (url === '/cloud/ip-ranges.json')
      return res.end(JSON.stringify({ prefixes: [{ ip_prefix: '3.5.140.0/22' }] }));
    const file = x4b[url];
    if (file) return res.end(readFileSync(join(BUNDLE, 'x4bnet', file)));
    res.statusCode = 404;
    res.end();
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${port}` };
}

interface Container {
  readonly name: string;
  readonly client: TestClient;
}

interface DataSetDetail {
  id: string;
  status: string;
  required: boolean;
  entries: number | null;
}

/** The data_sets detail of /readyz, and its HTTP status. */
async function dataSets(c: Container): Promise<{ status: number; sets: DataSetDetail[] }> {
  const ready = await c.client.get('/readyz');
  const check = (ready.body as { checks?: Record<string, { detail?: unknown }> }).checks;
  return { status: ready.status, sets: (check?.data_sets?.detail ?? []) as DataSetDetail[] };
}

describe('the image, run as containers on the real services', () => {
  let database: TestDatabase;
  let lists: { server: Server; base: string };
  const started: string[] = [];
  const containers = new Map<DeployableApp, Container>();
  let apiKey = '';

  /** Runs `app` from the image as a detached container: read-only, no capabilities, host network. */
  async function launch(name: string, app: DeployableApp, env: Record<string, string>) {
    // Removed by after() even when it fails to start (podman may leave it created).
    started.push(name);
    await podman(
      'run',
      '--detach',
      '--name',
      name,
      '--network',
      'host',
      '--read-only',
      '--tmpfs',
      '/tmp:rw,size=256m,mode=1777',
      '--cap-drop',
      'ALL',
      '--security-opt',
      'no-new-privileges',
      ...Object.entries(env).flatMap(([k, v]) => ['--env', `${k}=${v}`]),
      IMAGE,
      ...deployableCommand(app),
    );
  }

  /** Starts one deployable and waits for its /healthz. */
  async function start(app: DeployableApp, env: Record<string, string>): Promise<Container> {
    const port = env.PORT;
    const name = `verity-ct-${NAMESPACE}-${app}`;
    await launch(name, app, env);
    const client = new TestClient(`http://127.0.0.1:${port}`);
    for (let i = 0; ; i++) {
      const up = await client.get('/healthz').catch(() => null);
      if (up?.status === 200) break;
      const state = await podman('inspect', '--format', '{{.State.Status}}', name);
      if (state !== 'running' || i > 600)
        throw new Error(`${app} never answered /healthz (${state}):\n${await logs(name)}`);
      await sleep(100);
    }
    const c = { name, client };
    containers.set(app, c);
    return c;
  }

  const logs = (name: string) => podman('logs', '--tail', '40', name).catch(String);

  before(async () => {
    database = await createTestDatabase();
    lists = await startListServer();
    const apiPort = String(await freePort());
    const common: Record<string, string> = {
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      DATABASE_URL: database.url,
      DATABASE_POOL_SIZE: '4',
      ROW_BUS: 'kafka',
      KAFKA_BROKERS: process.env.KAFKA_BROKERS ?? '',
      KAFKA_CHUNK_PARTITIONS: '2',
      JOB_QUEUE: 'bull',
      REDIS_URL: process.env.REDIS_URL ?? '',
      BLOB_STORE: 's3',
      S3_ENDPOINT: process.env.S3_ENDPOINT ?? '',
      S3_REGION: process.env.S3_REGION ?? 'us-east-1',
      S3_BUCKET: process.env.S3_BUCKET ?? '',
      S3_ACCESS_KEY_ID: process.env.S3_ACCESS_KEY_ID ?? '',
      S3_SECRET_ACCESS_KEY: process.env.S3_SECRET_ACCESS_KEY ?? '',
      S3_FORCE_PATH_STYLE: 'true',
      SIGNING_SECRET: randomBytes(24).toString('hex'),
      ADMIN_TOKEN,
      // Own topics, groups and queues on the shared Kafka and Redis.
      BATCH_NAMESPACE: NAMESPACE,
      // Nothing leaves 127.0.0.1: DNS (unused by IP jobs) points at a closed loopback port.
      DNS_SERVERS: `127.0.0.1:${await freePort()}`,
      IP_TOR_EXIT_URL: `${lists.base}/tor/torbulkexitlist`,
      IP_X4BNET_URL: `${lists.base}/x4bnet`,
      IP_CLOUD_RANGES_URLS: `${lists.base}/cloud/ip-ranges.json`,
    };
    // The API first: it applies the migrations the others then find done.
    await start('api', { ...common, PORT: apiPort });
    const workers = await Promise.all([freePort(), freePort()]);
    await start('ingest', { ...common, PORT: String(workers[0]), DATA_REFRESH_INTERVAL: 'off' });
    // The scorer never refreshes: what it knows of VPNs comes from the image alone.
    await start('scorer', { ...common, PORT: String(workers[1]), DATA_REFRESH_INTERVAL: 'off' });
    const res = await fetch(`http://127.0.0.1:${apiPort}/admin/accounts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'container test', credits: 100 }),
    });
    assert.equal(res.status, 201);
    apiKey = ((await res.json()) as { api_key: string }).api_key;
  });

  after(async () => {
    for (const name of started) await podman('rm', '--force', name).catch(() => undefined);
    const admin = kafkaAdmin();
    await admin.connect();
    const { chunksTopic, chunkRetriesTopic, progressTopic } = batchNames(NAMESPACE);
    await admin
      .deleteTopics({ topics: [chunksTopic, chunkRetriesTopic, progressTopic] })
      .catch(() => undefined);
    await admin.disconnect();
    await new Promise((resolve) => lists?.server.close(resolve));
    await database?.drop();
  });

  it('runs every deployable as uid 1000 on a read-only root filesystem', async () => {
    for (const [app, c] of containers) {
      assert.equal(await podman('exec', c.name, 'id', '-u'), '1000', app);
      await assert.rejects(
        podman('exec', c.name, 'touch', '/app/written'),
        `${app}: /app read-only`,
      );
    }
  });

  it('seeds the scorer from the image: the bundled lists in use, the never-fetched Tor list missing', async () => {
    const { status, sets } = await dataSets(containers.get('scorer')!);
    assert.equal(status, 200);
    const state = Object.fromEntries(sets.map((s) => [s.id, s.status]));
    for (const id of ['city-db', 'asn-db']) assert.equal(state[id], 'loaded', id);
    const bundled = sets.filter((s) => s.id.startsWith('x4bnet-'));
    assert.equal(bundled.length, 5, JSON.stringify(sets));
    for (const s of bundled) {
      // The snapshot's date is the data's age: older than the cadence reads stale, still in use.
      assert.ok(['loaded', 'stale'].includes(s.status), `${s.id} ${s.status}`);
      assert.ok((s.entries ?? 0) > 0, s.id);
    }
    assert.equal(state['tor-exits'], 'missing');
  });

  it('lists every data set loaded on the API once its refresh ran', async () => {
    const api = containers.get('api')!;
    let last: DataSetDetail[] = [];
    for (let i = 0; i < 600; i++) {
      const { status, sets } = await dataSets(api);
      assert.equal(status, 200);
      last = sets;
      if (sets.length > 0 && sets.every((s) => s.status === 'loaded')) break;
      await sleep(100);
    }
    assert.deepEqual(
      last.filter((s) => s.status !== 'loaded').map((s) => `${s.id} ${s.status}`),
      [],
    );
    const ids = last.map((s) => s.id);
    for (const id of ['city-db', 'asn-db', 'tor-exits', 'x4bnet-vpn-ipv4', 'x4bnet-datacenter-asn'])
      assert.ok(ids.includes(id), id);
    assert.ok(
      ids.some((id) => id.startsWith('cloud-')),
      'a cloud range list',
    );
  });

  it('answers vpn: true for an address of the bundled X4BNet VPN list', async () => {
    const vpnIp = bundledVpnAddress();
    const api = containers.get('api')!.client.withKey(apiKey);
    const single = await api.post('/v1/ip/intel', { ip: vpnIp });
    assert.equal(single.status, 200, JSON.stringify(single.body));
    assert.equal((single.body as { vpn: boolean }).vpn, true);

    // Through a batch job the scorer answers, from the lists of the image alone.
    const created = await postBatch(containers.get('api')!.client, apiKey, [
      ['type', 'ip'],
      ['file', `${vpnIp}\n127.0.0.1\n`],
    ]);
    assert.equal(created.status, 202, JSON.stringify(created.body));
    const done = (await waitForJob(api, (created.body as { id: string }).id, 120_000, 200)).at(-1)!;
    assert.equal(done.body.status, 'done', JSON.stringify(done.body));
    const result = await download(done.body.result_url as string);
    assert.equal(result.status, 200);
    const [header, ...rows] = result.text.trim().split('\n');
    const vpn = header.split(',').indexOf('vpn');
    assert.ok(vpn > 0, header);
    assert.deepEqual(
      rows.map((r) => [r.split(',')[0], r.split(',')[vpn]]),
      [
        [vpnIp, 'true'],
        ['127.0.0.1', 'false'],
      ],
    );
  });

  it('created the batch topics of BATCH_NAMESPACE with the configured partitions', async () => {
    const admin = kafkaAdmin();
    await admin.connect();
    try {
      const names = batchNames(NAMESPACE);
      const brokers = (await admin.describeCluster()).brokers.length;
      const meta = await admin.fetchTopicMetadata({
        topics: [names.chunksTopic, names.chunkRetriesTopic, names.progressTopic],
      });
      for (const topic of meta.topics) {
        assert.equal(topic.partitions.length, 2, topic.name);
        for (const p of topic.partitions)
          assert.equal(p.replicas.length, Math.min(3, brokers), topic.name);
      }
    } finally {
      await admin.disconnect();
    }
  });

  it('refuses to start a deployable without DATABASE_URL, naming the variable', async () => {
    const name = `verity-ct-${NAMESPACE}-no-database`;
    const port = String(await freePort());
    await launch(name, 'scorer', { HOST: '127.0.0.1', PORT: port });
    // Until it exits on its own; a scorer that answers /healthz has started without a database.
    const client = new TestClient(`http://127.0.0.1:${port}`);
    while ((await podman('inspect', '--format', '{{.State.Status}}', name)) === 'running') {
      const up = await client.get('/healthz').catch(() => null);
      assert.notEqual(up?.status, 200, 'the scorer started without DATABASE_URL');
      await sleep(100);
    }
    assert.equal(await podman('inspect', '--format', '{{.State.ExitCode}}', name), '1');
    // The process writes the sentence to stderr; podman logs replays it there.
    const { stderr } = await run('podman', ['logs', name]);
    assert.match(
      stderr,
      /^verity-scorer: .*\n {2}DATABASE_URL: required by a deployable started on its own/m,
    );
  });

  it('stops every container on SIGTERM with exit code 0 within the grace', async () => {
    for (const app of ['scorer', 'ingest', 'api'] as const) {
      const { name } = containers.get(app)!;
      // podman stop sends the image's STOPSIGNAL and kills only after -t seconds: exit code 0
      // (not 137) means the graceful shutdown finished within the grace.
      await podman('stop', '--time', '30', name);
      const code = await podman('inspect', '--format', '{{.State.ExitCode}}', name);
      assert.equal(code, '0', `${app} exit code:\n${await logs(name)}`);
    }
  });
});
