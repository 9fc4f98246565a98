// The lint rules on SQL (`no-restricted-syntax` in eslint.config.mjs) are enforced by
// `npm run lint`; these tests keep them from rotting: `.query(` and `createQueryBuilder` are
// flagged outside `*.repository.ts`, and the exceptions it names, specs and test code pass; in
// a repository, a job status typed into SQL or written is flagged outside the job lifecycle.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ESLint as ESLintClass, Linter } from 'eslint';

const ROOT = process.cwd();
const RULE = 'no-restricted-syntax';

interface EslintModule {
  ESLint: typeof ESLintClass;
}

let eslintModules: Promise<{ ESLint: typeof ESLintClass; parser: Linter.Parser }> | undefined;

/**
 * The messages the repository config's `no-restricted-syntax` gives `code` placed at `file`
 * (repo path), run without type information so the probe files need not exist.
 */
async function sqlErrors(file: string, code: string): Promise<string[]> {
  eslintModules ??= Promise.all([import('eslint'), import('typescript-eslint')]).then(
    ([eslint, tseslint]) => ({
      ESLint: (eslint as EslintModule).ESLint,
      parser: (tseslint as { parser: Linter.Parser }).parser,
    }),
  );
  const { ESLint, parser } = await eslintModules;
  const path = join(ROOT, file);
  const config = (await new ESLint({ cwd: ROOT }).calculateConfigForFile(path)) as Linter.Config;
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

describe('lint rule: SQL only in repositories', () => {
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

describe('lint rule: a job status in SQL only from the lifecycle', () => {
  const TYPED_IN_SQL = [
    'export const a = "id = :id AND status = \'processing\'";\n',
    "export const b = `SELECT 1 FROM batch_jobs j WHERE j.status IN ('queued', 'processing')`;\n",
    "export const c = (repo: { existsBy(w: object): unknown }) => repo.existsBy({ status: 'done' });\n",
    "export const d = (In: (v: string[]) => unknown) => ({ where: { status: In(['queued']) } });\n",
  ];
  const WRITES = [
    'export const e = (qb: { set(v: object): unknown }, s: string) => qb.set({ status: s });\n',
    'export const f = (r: { update(a: object, b: object): unknown }, s: string) => r.update({ id: 1 }, { status: s });\n',
  ];
  const FROM_THE_MACHINE = [
    'export const g = `id = :jobId AND ${statusIn(RUNNING_STATUSES)}`;\n',
    'export const h = (In: (v: readonly string[]) => unknown, L: readonly string[]) => ({ status: In(L) });\n',
    "export const i = (qb: { andWhere(s: string, p: object): unknown }, s: string) => qb.andWhere('j.status = :status', { status: s });\n",
  ];

  it('flags a status typed into SQL, and a status written, in a repository outside the lifecycle', async () => {
    const file = 'libs/batch/src/jobs/probe.repository.ts';
    for (const code of TYPED_IN_SQL) {
      const found = await sqlErrors(file, code);
      assert.equal(found.length, 1, code);
      assert.match(found[0], /comes from the state machine/);
    }
    for (const code of WRITES) {
      const found = await sqlErrors(file, code);
      assert.equal(found.length, 1, code);
      assert.match(found[0], /Only the job lifecycle writes a job's status/);
    }
    for (const code of FROM_THE_MACHINE) assert.deepEqual(await sqlErrors(file, code), [], code);
  });

  it('lets the lifecycle module write the status', async () => {
    const file = 'libs/batch/src/jobs/lifecycle/probe.repository.ts';
    for (const code of [...TYPED_IN_SQL, ...WRITES]) {
      assert.deepEqual(await sqlErrors(file, code), [], code);
    }
  });
});
