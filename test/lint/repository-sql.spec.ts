// The lint rule that keeps SQL in repositories (`no-restricted-syntax` in eslint.config.mjs) is
// enforced by `npm run lint`; these tests keep it from rotting: `.query(` and
// `createQueryBuilder` are flagged outside `*.repository.ts`, and the exceptions it names, specs
// and test code pass.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { ESLint as ESLintClass, Linter } from 'eslint';

const ROOT = process.cwd();
const RULE = 'no-restricted-syntax';

interface EslintModule {
  ESLint: typeof ESLintClass;
}

describe('lint rule: SQL only in repositories', () => {
  let ESLint: typeof ESLintClass;
  let parser: Linter.Parser;
  let repoEslint: ESLintClass;

  before(async () => {
    ({ ESLint } = (await import('eslint')) as EslintModule);
    ({ parser } = (await import('typescript-eslint')) as { parser: Linter.Parser });
    repoEslint = new ESLint({ cwd: ROOT });
  });

  /**
   * The messages the repository config's `no-restricted-syntax` gives `code` placed at `file`
   * (repo path), run without type information so the probe files need not exist.
   */
  async function sqlErrors(file: string, code: string): Promise<string[]> {
    const path = join(ROOT, file);
    const config = (await repoEslint.calculateConfigForFile(path)) as Linter.Config;
    const setting = config.rules?.[RULE];
    if (!setting) return [];
    const eslint = new ESLint({
      cwd: ROOT,
      overrideConfigFile: true,
      overrideConfig: [
        { files: ['**/*.ts'], languageOptions: { parser }, rules: { [RULE]: setting } },
      ],
    });
    const [result] = await eslint.lintText(code, { filePath: path });
    return result.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
  }

  const RAW = `export async function f(db: { query(sql: string): Promise<unknown> }) {\n  await db.query('SELECT 1');\n}\n`;
  const BUILDER = `export function f(repo: { createQueryBuilder(): unknown }) {\n  return repo.createQueryBuilder();\n}\n`;

  it('flags raw SQL and the query builder outside a repository, in libs and apps', async () => {
    for (const file of [
      'libs/batch/src/jobs/probe.service.ts',
      'libs/accounts/src/probe.ts',
      'apps/api/src/console/probe.ts',
      'apps/ingest/src/recovery/probe.ts',
    ]) {
      const raw = await sqlErrors(file, RAW);
      assert.equal(raw.length, 1, file);
      assert.match(raw[0], /`\.query\(` runs SQL: put it in the table's repository/);
      const builder = await sqlErrors(file, BUILDER);
      assert.equal(builder.length, 1, file);
      assert.match(builder[0], /`\.createQueryBuilder\(` runs SQL/);
    }
  });

  it('lets repositories, the named exceptions and test code run SQL', async () => {
    for (const file of [
      'libs/batch/src/jobs/probe.repository.ts',
      'libs/platform/src/health/health.controller.ts',
      'libs/accounts/src/notification.listener.ts',
      'libs/database/src/migrations/1700000000000-probe.ts',
      'libs/database/src/embedded-postgres.launcher.ts',
      'libs/database/src/data-source.factory.ts',
      'libs/integrations/src/dns/caching.dns-resolver.ts',
      'libs/batch/src/jobs/probe.spec.ts',
      'test/support/probe.ts',
      'bench/probe.ts',
    ]) {
      assert.deepEqual(await sqlErrors(file, RAW), [], file);
      assert.deepEqual(await sqlErrors(file, BUILDER), [], file);
    }
  });
});
