import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deployableCommand, readRepoFile, readYaml, repoPathExists } from './deploy-files';

interface Stage {
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: string[];
}

/** Splits a Dockerfile into stages of instructions (continuations joined, comments dropped). */
function stages(text: string): Stage[] {
  const lines = text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const out: { from: string; name: string | undefined; instructions: string[] }[] = [];
  for (const line of lines) {
    const from = /^FROM\s+(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from) out.push({ from: from[1], name: from[2], instructions: [] });
    else out[out.length - 1]?.instructions.push(line);
  }
  return out;
}

const dockerfile = stages(readRepoFile('Dockerfile'));
const ignore = readRepoFile('.dockerignore')
  .split('\n')
  .map((l) => l.trim());

describe('Dockerfile', () => {
  it('builds in one stage and runs from a slim Node 24 LTS stage', () => {
    assert.equal(dockerfile.length, 2);
    const [build, runtime] = dockerfile;
    for (const stage of dockerfile) assert.match(stage.from, /^node:24[-.\w]*slim$/);
    assert.ok(build.instructions.some((i) => /^RUN npm ci\b/.test(i) && !i.includes('--omit')));
    assert.ok(build.instructions.includes('RUN npm run build'));
    assert.ok(
      runtime.instructions.some((i) => /^RUN npm ci\b.*--omit=dev/.test(i)),
      'production deps only',
    );
    assert.ok(
      runtime.instructions.some((i) => i.startsWith(`COPY --from=${build.name} /app/dist`)),
    );
  });

  it('ships the Node.js major that CI also tests on (scripts/infra/node.sh)', () => {
    const pinned = /^VERSION="\$\{NODE_LTS_VERSION:-(\d+)\.\d+\.\d+\}"$/m.exec(
      readRepoFile('scripts/infra/node.sh'),
    );
    assert.ok(pinned, 'node.sh pins a version');
    for (const stage of dockerfile) assert.equal(/^node:(\d+)/.exec(stage.from)?.[1], pinned[1]);
  });

  it('runs as the unprivileged node user with an exec-form command', () => {
    const runtime = dockerfile[dockerfile.length - 1];
    const users = runtime.instructions.filter((i) => i.startsWith('USER '));
    assert.deepEqual(users, ['USER node']);
    const cmd = runtime.instructions.find((i) => i.startsWith('CMD ')) ?? '';
    // Exec form (a JSON array), the API as package.json's start:api runs it.
    assert.deepEqual(JSON.parse(cmd.slice('CMD '.length)), deployableCommand('api'));
    const env = runtime.instructions.filter((i) => i.startsWith('ENV ')).join(' ');
    assert.match(env, /HOST=0\.0\.0\.0/);
  });

  it('carries the bundled data sets npm start seeds VERITY_HOME from', () => {
    const runtime = dockerfile[dockerfile.length - 1];
    assert.ok(runtime.instructions.includes('COPY data ./data'), 'data/ is copied to /app/data');
    assert.ok(!ignore.includes('data'), 'data/ stays in the build context');
    // bundledDataDir() walks up from dist/libs/integrations/src/ip-data to the folder holding
    // data/ip/SNAPSHOT.json: /app, where dist/ is too.
    assert.ok(repoPathExists('data/ip/SNAPSHOT.json'));
    assert.ok(runtime.instructions.some((i) => i.startsWith('WORKDIR /app')));
  });

  it('ships the deployables compiled, never the compiled tests and benchmarks', () => {
    const runtime = dockerfile[dockerfile.length - 1];
    const copies = runtime.instructions
      .filter((i) => i.startsWith(`COPY --from=${dockerfile[0].name} `))
      .map((i) => i.split(/\s+/)[2]);
    assert.deepEqual(copies.sort(), ['/app/dist/apps', '/app/dist/console', '/app/dist/libs']);
  });

  it('stops on SIGTERM, and every stop grace written down fits SHUTDOWN_TIMEOUT_MS', () => {
    const runtime = dockerfile[dockerfile.length - 1];
    assert.deepEqual(
      runtime.instructions.filter((i) => i.startsWith('STOPSIGNAL ')),
      ['STOPSIGNAL SIGTERM'],
    );
    const compose = readYaml('docker-compose.yml') as {
      services: Record<string, { stop_grace_period?: string; environment?: unknown }>;
    };
    const shutdownMs = Number(
      /SHUTDOWN_TIMEOUT_MS: '(\d+)'/.exec(readRepoFile('docker-compose.yml'))?.[1],
    );
    for (const app of ['api', 'ingest', 'scorer']) {
      const grace = /^(\d+)s$/.exec(compose.services[app].stop_grace_period ?? '');
      assert.ok(grace, `${app} has stop_grace_period in seconds`);
      assert.ok(Number(grace[1]) * 1000 > shutdownMs, `${app}: grace above SHUTDOWN_TIMEOUT_MS`);
    }
    // The image cannot carry a stop timeout; the Dockerfile and the runbook name the one to use.
    assert.match(readRepoFile('Dockerfile'), /docker stop -t 30/);
    assert.match(readRepoFile('docs/operations.md'), /--stop-timeout 30/);
  });

  it('keeps local state, build output and secrets out of the build context', () => {
    for (const entry of ['node_modules', 'dist', '.git', '.verity', '.env'])
      assert.ok(ignore.includes(entry), entry);
    // The build compiles the whole TypeScript project, so its sources must stay in the context.
    for (const needed of [
      'apps',
      'libs',
      'test',
      'package.json',
      'package-lock.json',
      'tsconfig.json',
      'bin',
    ]) {
      assert.ok(!ignore.includes(needed), needed);
    }
  });
});
