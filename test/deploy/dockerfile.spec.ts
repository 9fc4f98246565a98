import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deployableCommand, readRepoFile } from './deploy-files';

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
