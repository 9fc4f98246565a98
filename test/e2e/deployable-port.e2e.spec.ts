import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { createTestDatabase, type TestDatabase } from '@verity/testing';
import { deployableCommand, type DeployableApp } from '../deploy/deploy-files';
import { cleanEnv } from './verity-process';

/** Runs a deployable to its exit; returns the exit code and stderr. */
async function runDeployable(
  app: DeployableApp,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  const [command, ...args] = deployableCommand(app);
  const child = spawn(command === 'node' ? process.execPath : command, args, {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, stderr };
}

describe('a deployable whose PORT is taken', () => {
  let database: TestDatabase;
  let holder: Server;
  let port: number;

  before(async () => {
    database = await createTestDatabase();
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    port = (holder.address() as { port: number }).port;
  });

  after(async () => {
    holder.close();
    await database.drop();
  });

  for (const app of ['api', 'ingest', 'scorer'] as const) {
    it(`${app}: exits 1 with one sentence naming the port and the fix, no stack`, async () => {
      const { code, stderr } = await runDeployable(
        app,
        cleanEnv({ DATABASE_URL: database.url, PORT: String(port), HOST: '127.0.0.1' }),
      );
      assert.equal(code, 1, stderr);
      const last = stderr.trimEnd().split('\n').at(-1) ?? '';
      assert.equal(
        last,
        `verity-${app}: Port ${port} on 127.0.0.1 is already in use by another program: stop that program, or start Verity on a free port, e.g. PORT=${port + 1}.`,
      );
      assert.doesNotMatch(stderr, /^\s+at /m, 'no stack trace');
    });
  }
});
