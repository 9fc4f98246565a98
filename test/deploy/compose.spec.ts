import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  asArray,
  asObject,
  at,
  deployableCommand,
  readRepoFile,
  readYaml,
  repoPathExists,
  type JsonObject,
  str,
} from './deploy-files';
import { interpolateUnset, type MissingDefault } from './compose-interpolate';
import { checkVerityEnv } from './verity-env';

const raw = readYaml('docker-compose.yml');
const missing: MissingDefault[] = [];
const compose = asObject(interpolateUnset(raw, missing), 'compose');
const services = asObject(compose.services, 'services');
const service = (name: string): JsonObject => asObject(services[name], `services.${name}`);

const APPS = ['api', 'ingest', 'scorer'] as const;
const INFRA = ['postgres', 'redis', 'kafka', 'minio', 'prometheus', 'grafana'] as const;
/** Services without a healthcheck, with the reason (also written next to them in the file). */
const NO_HEALTHCHECK: Readonly<Record<string, string>> = {
  'minio-init': 'one-shot job is judged by its exit code',
};

/** A service's environment as strings, whether written as a map or a KEY=VALUE list. */
function environment(name: string): Record<string, string> {
  const env = service(name).environment;
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry) => {
        const [key, ...rest] = str(entry).split('=');
        return [key ?? '', rest.join('=')];
      }),
    );
  }
  const map = asObject(env ?? {}, `${name}.environment`);
  return Object.fromEntries(Object.entries(map).map(([k, v]) => [k, v === null ? '' : str(v)]));
}

function dependsOn(name: string): Record<string, string | undefined> {
  const deps = service(name).depends_on;
  if (deps === undefined) return {};
  if (Array.isArray(deps)) return Object.fromEntries(deps.map((d) => [str(d), undefined]));
  return Object.fromEntries(
    Object.entries(asObject(deps, `${name}.depends_on`)).map(([k, v]) => [
      k,
      at(v, 'condition') as string | undefined,
    ]),
  );
}

/** Host side of a port mapping such as '8080:8080' or '127.0.0.1:80:8080'. */
function hostPorts(name: string): string[] {
  return asArray(service(name).ports, `${name}.ports`).map((p) => {
    const parts = str(typeof p === 'object' && p !== null ? at(p, 'published') : p).split(':');
    return parts.length >= 2 ? parts[parts.length - 2] : parts[0];
  });
}

describe('docker-compose.yml', () => {
  it('defines the infrastructure, the three deployables and monitoring', () => {
    for (const name of [...INFRA, ...APPS, 'minio-init']) assert.ok(services[name], name);
    assert.match(str(service('kafka').image), /^apache\/kafka:/);
    assert.match(str(service('minio-init').image), /^(quay\.io\/)?minio\/mc:/);
    assert.equal(at(service('scorer'), 'deploy', 'replicas'), 2);
  });

  it('gives every variable reference a default, so a bare `docker compose up` works', () => {
    assert.deepEqual(missing, []);
  });

  it('configures every app with a valid, fully distributed Verity environment', () => {
    for (const app of APPS) {
      const env = environment(app);
      const { unknown, config, error } = checkVerityEnv(env);
      assert.deepEqual(unknown, [], `${app}: not Verity settings`);
      assert.equal(error, undefined, `${app}: ${error}`);
      assert.ok(config);
      assert.equal(config.HOST, '0.0.0.0');
      assert.equal(config.ROW_BUS, 'kafka');
      assert.equal(config.JOB_QUEUE, 'bull');
      assert.equal(config.BLOB_STORE, 's3');
      assert.equal(config.S3_FORCE_PATH_STYLE, true);
      assert.ok(config.SIGNING_SECRET !== undefined && config.SIGNING_SECRET.length >= 32);
      assert.ok(config.ADMIN_TOKEN !== undefined && config.PUBLIC_URL !== undefined);
      assert.equal(new URL(config.DATABASE_URL ?? '').host, 'postgres:5432');
      assert.equal(new URL(config.REDIS_URL ?? '').hostname, 'redis');
      assert.deepEqual(config.KAFKA_BROKERS, ['kafka:9092']);
      assert.equal(new URL(config.S3_ENDPOINT ?? '').host, 'minio:9000');
    }
  });

  it('uses the same credentials on both sides of each connection', () => {
    const api = environment('api');
    const pg = environment('postgres');
    const db = new URL(api.DATABASE_URL ?? '');
    assert.equal(db.username, pg.POSTGRES_USER);
    assert.equal(decodeURIComponent(db.password), pg.POSTGRES_PASSWORD);
    assert.equal(db.pathname, `/${pg.POSTGRES_DB}`);
    const minio = environment('minio');
    assert.equal(api.S3_ACCESS_KEY_ID, minio.MINIO_ROOT_USER);
    assert.equal(api.S3_SECRET_ACCESS_KEY, minio.MINIO_ROOT_PASSWORD);
    const init = asArray(service('minio-init').entrypoint, 'entrypoint').map(str).join(' ');
    assert.ok(init.includes(`local/${api.S3_BUCKET}`), 'minio-init creates the configured bucket');
    assert.ok(
      str(environment('kafka').KAFKA_ADVERTISED_LISTENERS).includes(
        `PLAINTEXT://${api.KAFKA_BROKERS}`,
      ),
      'apps connect through the advertised in-network listener',
    );
  });

  it('runs each app from the entrypoint npm scripts use', () => {
    for (const app of APPS) {
      const command = asArray(service(app).command, `${app}.command`).map(str);
      assert.deepEqual(command, deployableCommand(app));
      assert.equal(command.at(-1), `dist/apps/${app}/src/main.js`);
      assert.equal(at(service(app), 'build', 'dockerfile'), 'Dockerfile');
    }
  });

  it('publishes nothing of PostgreSQL, Redis and the S3 API, and the rest on 127.0.0.1 only', () => {
    for (const name of ['postgres', 'redis', 'minio-init'])
      assert.equal(service(name).ports, undefined, `${name} publishes no port`);
    assert.ok(!hostPorts('minio').includes('9000'), 'the S3 API stays on the compose network');
    for (const name of Object.keys(services)) {
      for (const p of asArray(service(name).ports ?? [], `${name}.ports`)) {
        assert.match(str(p), /^127\.0\.0\.1:\d+:\d+$/, `${name} publishes ${str(p)}`);
      }
    }
  });

  it('publishes unique host ports and none for the replicated scorer', () => {
    const seen = new Map<string, string>();
    for (const name of Object.keys(services)) {
      for (const port of hostPorts(name)) {
        assert.ok(!seen.has(port), `host port ${port} used by ${seen.get(port)} and ${name}`);
        seen.set(port, name);
      }
    }
    assert.deepEqual(hostPorts('scorer'), []);
    const appPorts = APPS.map((a) => environment(a).PORT);
    assert.equal(new Set(appPorts).size, APPS.length, 'apps listen on distinct ports');
  });

  it('depends only on defined services, waiting on health where a healthcheck exists', () => {
    for (const name of Object.keys(services)) {
      for (const [target, condition] of Object.entries(dependsOn(name))) {
        assert.ok(services[target], `${name} depends on missing ${target}`);
        if (condition === 'service_healthy')
          assert.ok(service(target).healthcheck, `${target} has a healthcheck`);
      }
    }
    for (const app of APPS) {
      const deps = dependsOn(app);
      for (const infra of ['postgres', 'redis', 'kafka'])
        assert.equal(deps[infra], 'service_healthy', `${app} -> ${infra}`);
      assert.equal(
        deps['minio-init'],
        'service_completed_successfully',
        `${app} waits for the bucket`,
      );
    }
  });

  it('gives every service a healthcheck, or a reason written here and in the file', () => {
    const raw = readRepoFile('docker-compose.yml');
    for (const name of Object.keys(services)) {
      const test = at(service(name), 'healthcheck', 'test');
      if (NO_HEALTHCHECK[name] !== undefined) {
        assert.equal(test, undefined, `${name} is exempt but has a healthcheck`);
        assert.ok(raw.includes(NO_HEALTHCHECK[name]), `${name}: docker-compose.yml says why`);
      } else {
        // A string (CMD-SHELL) is the one form podman-compose 1.0.3 runs for every service and
        // replica: it consumes a list's first item in place and joins a CMD list into one word.
        assert.equal(typeof test, 'string', `${name} healthcheck test is a string`);
        assert.ok(str(test).trim().length > 0, `${name} healthcheck`);
      }
    }
  });

  it('shares no healthcheck through a YAML anchor', () => {
    assert.doesNotMatch(readRepoFile('docker-compose.yml'), /healthcheck:\s*[*&]/);
  });

  it('pins every image to a version tag, never latest', () => {
    for (const [name, svc] of Object.entries(services)) {
      const image = str(at(svc, 'image'));
      const tag = /:([^/:@]+)$/.exec(image)?.[1];
      assert.ok(tag, `${name}: ${image} has no tag`);
      assert.notEqual(tag, 'latest', `${name}: ${image}`);
      assert.ok(!/^(stable|edge|main|master)$/.test(tag), `${name}: ${image} floats`);
    }
  });

  it('points Prometheus at every app service on the port it listens on', () => {
    const prom = readYaml('deploy/prometheus/prometheus.yml');
    const targets = new Map<string, string>(); // host -> port
    for (const job of asArray(prom.scrape_configs, 'scrape_configs')) {
      for (const sd of asArray(at(job, 'dns_sd_configs'), 'dns_sd_configs')) {
        for (const host of asArray(at(sd, 'names'), 'names'))
          targets.set(str(host), str(at(sd, 'port')));
      }
      for (const sc of asArray(at(job, 'static_configs'), 'static_configs')) {
        for (const t of asArray(at(sc, 'targets'), 'targets')) {
          const [host, port] = str(t).split(':');
          targets.set(host ?? '', port ?? '');
        }
      }
      if (at(job, 'job_name') !== 'prometheus')
        assert.equal(at(job, 'metrics_path') ?? '/metrics', '/metrics');
    }
    for (const [host] of targets)
      assert.ok(host === 'localhost' || services[host], `scrape target ${host} is a service`);
    for (const app of APPS)
      assert.equal(targets.get(app), environment(app).PORT, `${app} scraped on its PORT`);
    const mounts = asArray(service('prometheus').volumes, 'volumes').map(str);
    assert.ok(mounts.some((m) => m.startsWith('./deploy/prometheus/prometheus.yml:')));
    // rule_files paths are relative to the config file: alerts.yml sits next to it.
    assert.deepEqual(prom.rule_files, ['alerts.yml']);
    assert.ok(
      mounts.includes('./deploy/prometheus/alerts.yml:/etc/prometheus/alerts.yml:ro'),
      'the alerting rules are mounted next to the config',
    );
  });

  it('mounts only files that exist in the repository', () => {
    for (const [name, svc] of Object.entries(services)) {
      for (const volume of asArray(at(svc, 'volumes'), `${name}.volumes`)) {
        const source = str(volume).split(':')[0] ?? '';
        if (source.startsWith('./')) assert.ok(repoPathExists(source), `${name}: ${source}`);
      }
    }
  });
});

describe('compose interpolation', () => {
  it('uses defaults, unescapes $$ and reports references without a default', () => {
    const seen: MissingDefault[] = [];
    const out = interpolateUnset({ a: '${A:-x}-${B-y}', b: '$$HOME', c: ['${C}'] }, seen);
    assert.deepEqual(out, { a: 'x-y', b: '$HOME', c: [''] });
    assert.deepEqual(seen, [{ variable: 'C', where: '.c[0]' }]);
  });
});
