// The lint boundary rule (scripts/lint/import-boundaries.mjs) is enforced by `npm run lint`;
// these tests keep it from rotting: it must flag each kind of escape, let the allowed imports
// through, and stay switched on for libs/ and apps/ in eslint.config.mjs.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, it } from 'node:test';
import type { ESLint as ESLintClass, Linter } from 'eslint';

const ROOT = process.cwd();
const RULE = 'verity/import-boundaries';
// Built at run time: the build's alias rewriter (tsc-alias) would turn a literal
// `from '@verity/testing'` in these probe sources into a relative path.
const TESTING = ['@verity', 'testing'].join('/');

interface EslintModule {
  ESLint: typeof ESLintClass;
}

describe('lint boundary rule', () => {
  let eslint: ESLintClass;
  let repoEslint: ESLintClass;

  before(async () => {
    const { ESLint } = (await import('eslint')) as EslintModule;
    const { parser } = (await import('typescript-eslint')) as { parser: Linter.Parser };
    const url = pathToFileURL(join(ROOT, 'scripts/lint/import-boundaries.mjs')).href;
    const plugin = ((await import(url)) as { default: ESLintClass.Plugin }).default;
    // Only the boundary rule, without type information: the probe files need not exist.
    eslint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser },
          plugins: { verity: plugin },
          rules: { [RULE]: 'error' },
        },
      ],
    });
    repoEslint = new ESLint({ cwd: ROOT });
  });

  /** The boundary messages ESLint gives `code` placed at `file` (repo path). */
  async function boundaryErrors(file: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
    return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
  }

  it('flags a library importing test support, by alias and by relative path', async () => {
    const byAlias = await boundaryErrors(
      'libs/batch/src/jobs/probe.ts',
      `import { startTestStack } from '${TESTING}';\nvoid startTestStack;\n`,
    );
    assert.equal(byAlias.length, 1);
    assert.match(byAlias[0], /never imports test code/);
    const byPath = await boundaryErrors(
      'libs/batch/src/jobs/probe.ts',
      `export { backendGate } from '../../../../test/support/backend-gate';\n`,
    );
    assert.equal(byPath.length, 1);
    assert.match(byPath[0], /never imports test code/);
    const spec = await boundaryErrors(
      'libs/ports/src/probe.ts',
      `import type { X } from './adapters/memory.row-bus.spec';\nexport type Y = X;\n`,
    );
    assert.equal(spec.length, 1);
  });

  it('flags a library importing an app, or another library past its entry', async () => {
    const app = await boundaryErrors(
      'libs/batch/src/probe.ts',
      `import { ScorerModule } from '../../../apps/scorer/src/scorer.module';\nvoid ScorerModule;\n`,
    );
    assert.equal(app.length, 1);
    assert.match(app[0], /libs\/ never import apps\//);
    const internals = await boundaryErrors(
      'libs/batch/src/probe.ts',
      `import { MemoryRowBus } from '../../ports/src/adapters/memory.row-bus';\nvoid MemoryRowBus;\n`,
    );
    assert.equal(internals.length, 1);
    assert.match(internals[0], /through its @verity\/ports entry/);
  });

  it("flags an app importing another app's internals", async () => {
    const errors = await boundaryErrors(
      'apps/scorer/src/probe.ts',
      `import { BatchController } from '../../api/src/batch/batch.controller';\nvoid BatchController;\n`,
    );
    assert.equal(errors.length, 1);
    assert.match(errors[0], /apps\/scorer never imports another app/);
  });

  it("lets apps/verity import each app's entry module and nothing else of it", async () => {
    const entries = await boundaryErrors(
      'apps/verity/src/commands/probe.ts',
      [
        `import { createApiApp } from '../../../api/src/create-api-app';`,
        `import { IngestModule } from '../../../ingest/src/ingest.module';`,
        `import { ScorerModule } from '../../../scorer/src/scorer.module';`,
        `void [createApiApp, IngestModule, ScorerModule];`,
      ].join('\n'),
    );
    assert.deepEqual(entries, []);
    const internals = await boundaryErrors(
      'apps/verity/src/commands/probe.ts',
      `import { SplitterService } from '../../../ingest/src/splitter/splitter.service';\nvoid SplitterService;\n`,
    );
    assert.equal(internals.length, 1);
    assert.match(internals[0], /only through apps\/ingest\/src\/ingest.module.ts/);
  });

  it('flags node:test imported by production code, and lets test code import it', async () => {
    const code = `import { it } from 'node:test';\nvoid it;\n`;
    for (const file of ['apps/api/src/rate-limit/probe.ts', 'libs/integrations/src/probe.ts']) {
      const errors = await boundaryErrors(file, code);
      assert.equal(errors.length, 1, file);
      assert.match(errors[0], /only specs, test\/ and bench\/ import the test runner/);
    }
    const reporters = await boundaryErrors(
      'libs/batch/src/probe.ts',
      `import { spec } from 'node:test/reporters';\nvoid spec;\n`,
    );
    assert.equal(reporters.length, 1);
    for (const file of [
      'apps/api/src/rate-limit/probe.spec.ts',
      'test/support/contracts/probe.contract.ts',
      'bench/probe.ts',
    ]) {
      assert.deepEqual(await boundaryErrors(file, code), [], file);
    }
  });

  it('keeps the engines free of I/O: no Nest, TypeORM, Node I/O module or adapter library', async () => {
    for (const spec of [
      'node:net',
      'node:fs/promises',
      'fs',
      'node:http',
      'node:dgram',
      '@nestjs/common',
      'typeorm',
      '@verity/integrations',
      '@verity/ports',
      '@verity/database',
    ]) {
      const errors = await boundaryErrors(
        'libs/validation/src/email/probe.ts',
        `import * as m from '${spec}';\nvoid m;\n`,
      );
      assert.equal(errors.length, 1, spec);
      assert.match(errors[0], /engines do no I\/O/, spec);
    }
    for (const spec of [
      '@verity/common',
      '@verity/contracts',
      'libphonenumber-js/max',
      'node:module',
    ])
      assert.deepEqual(
        await boundaryErrors(
          'libs/validation/src/email/probe.ts',
          `import * as m from '${spec}';\nvoid m;\n`,
        ),
        [],
        spec,
      );
    assert.deepEqual(
      await boundaryErrors(
        'libs/validation/src/email/probe.spec.ts',
        `import { readFileSync } from 'node:fs';\nvoid readFileSync;\n`,
      ),
      [],
    );
  });

  it('flags a port importing an adapter, and lets adapters and contract specs import ports', async () => {
    const port = await boundaryErrors(
      'libs/ports/src/ports/probe.port.ts',
      `import { MemoryRowBus } from '../adapters/memory.row-bus';\nvoid MemoryRowBus;\n`,
    );
    assert.equal(port.length, 1);
    assert.match(port[0], /ports never import adapters/);
    const adapter = await boundaryErrors(
      'libs/ports/src/adapters/probe.row-bus.ts',
      `import type { RowBus } from '../ports/row-bus.port';\nexport type B = RowBus;\n`,
    );
    assert.deepEqual(adapter, []);
    const contract = await boundaryErrors(
      'libs/ports/src/ports/probe.contract.spec.ts',
      `import { MemoryRowBus } from '../adapters/memory.row-bus';\nvoid MemoryRowBus;\n`,
    );
    assert.deepEqual(contract, []);
  });

  it('lets only its adapters import the client library of an external system', async () => {
    const imports = (spec: string) => `import * as client from '${spec}';\nvoid client;\n`;
    for (const spec of ['kafkajs', 'bull', '@aws-sdk/client-s3', 'ioredis', 'pg']) {
      for (const file of ['libs/batch/src/workers/probe.ts', 'apps/api/src/batch/probe.ts']) {
        const errors = await boundaryErrors(file, imports(spec));
        assert.equal(errors.length, 1, `${spec} in ${file}`);
        assert.match(errors[0], /a client library is imported only by its adapters/);
      }
    }
    for (const [file, spec] of [
      ['libs/ports/src/adapters/probe.row-bus.ts', 'kafkajs'],
      ['libs/ports/src/adapters/probe.blob-store.ts', '@aws-sdk/client-s3'],
      ['apps/api/src/rate-limit/redis.probe-store.ts', 'ioredis'],
      ['libs/history/src/store/redis.probe-store.ts', 'ioredis'],
      ['libs/database/src/probe.ts', 'pg'],
      ['libs/accounts/src/notification.listener.ts', 'pg'],
      ['libs/batch/src/workers/probe.spec.ts', 'kafkajs'],
      ['test/distributed/probe.ts', 'pg'],
    ])
      assert.deepEqual(await boundaryErrors(file, imports(spec)), [], `${spec} in ${file}`);
  });

  it('lets specs, test/ and bench/ import test support and apps', async () => {
    const code = `import { startTestStack } from '${TESTING}';\nimport { IngestModule } from '../../apps/ingest/src/ingest.module';\nvoid [startTestStack, IngestModule];\n`;
    assert.deepEqual(await boundaryErrors('test/e2e/probe.spec.ts', code), []);
    assert.deepEqual(await boundaryErrors('bench/probe.ts', code), []);
    assert.deepEqual(
      await boundaryErrors(
        'libs/ports/src/probe.spec.ts',
        `import { waitFor } from '${TESTING}';\nvoid waitFor;\n`,
      ),
      [],
    );
  });

  it('is switched on for every library and app in the repository config', async () => {
    for (const file of [
      'libs/batch/src/index.ts',
      'libs/ports/src/index.ts',
      'apps/scorer/src/main.ts',
      'apps/verity/src/main.ts',
    ]) {
      const config = (await repoEslint.calculateConfigForFile(join(ROOT, file))) as Linter.Config;
      assert.deepEqual(config.rules?.[RULE], [2], file);
    }
  });
});
