// Type-aware lint; `npm run lint` must report zero warnings.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import boundaries from './scripts/lint/import-boundaries.mjs';

/** SQL text that compares a status with a quoted value (`status = 'done'`, `status IN ('…'`). */
const STATUS_IN_SQL = String.raw`/\bstatus\s*(=|<>|!=|\bin\b|\bIN\b)\s*\(?\s*'/`;

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'libs/client/dist/**',
      'node_modules/**',
      '.verity/**',
      '.infra/**',
      'scripts/**/*.mjs',
      'bin/**',
      'eslint.config.mjs',
      // Programs on generated clients: type-checked (strict) by the test that generates them.
      'test/openapi-clients/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            { from: 'package', name: ['describe', 'it', 'test'], package: 'node:test' },
          ],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/no-extraneous-class': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'always'],
    },
  },
  {
    // libs never import test code or apps; apps never import another app's internals; engines
    // do no I/O; ports never import adapters; a client library (kafkajs, Bull, AWS SDK, ioredis,
    // pg) only in its adapters; only test code imports node:test
    // (scripts/lint/import-boundaries.mjs; its test: test/lint/import-boundaries.spec.ts).
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { verity: boundaries },
    rules: { 'verity/import-boundaries': 'error' },
  },
  {
    // One way to the database (CONTRIBUTING.md): SQL and the query builder live in the table's
    // repository (*.repository.ts). The rule matches any `.query(` call, whatever its receiver.
    files: ['**/*.ts', '**/*.tsx'],
    ignores: [
      '**/*.repository.ts',
      '**/*.spec.ts',
      'test/**',
      'bench/**',
      // Schema changes, run by the migration runner.
      'libs/database/src/migrations/**',
      // Creates the embedded cluster's database before any DataSource exists.
      'libs/database/src/embedded-postgres.launcher.ts',
      // The advisory lock around the migrations on the DataSource it builds.
      'libs/database/src/data-source.factory.ts',
      // The readiness ping, `SELECT 1`.
      'libs/platform/src/health/health.controller.ts',
      // The dedicated LISTEN connection of the notification channels.
      'libs/accounts/src/notification.listener.ts',
      // `DnsQuerier.query` sends a DNS query, not SQL.
      'libs/integrations/src/dns/caching.dns-resolver.ts',
      'libs/integrations/src/dns/dns.canary.ts',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...['query', 'createQueryBuilder'].map((name) => ({
          selector: `CallExpression[callee.property.name='${name}']`,
          message: `\`.${name}(\` runs SQL: put it in the table's repository (*.repository.ts), one owner per table (CONTRIBUTING.md).`,
        })),
      ],
    },
  },
  {
    // A lifecycle has one door (CONTRIBUTING.md, "Where a change goes"): which job statuses a
    // statement accepts comes from the state machine (`statusIn(LIVE_STATUSES)`, `In(…)` of its
    // sets), never a status typed into SQL, and only the lifecycle's repository writes one.
    files: ['**/*.repository.ts'],
    ignores: ['libs/batch/src/jobs/lifecycle/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          `Literal[value=${STATUS_IN_SQL}]`,
          `TemplateElement[value.raw=${STATUS_IN_SQL}]`,
          "Property[key.name='status'] Literal",
        ].map((selector) => ({
          selector,
          message:
            'A job status in SQL comes from the state machine (libs/batch/src/jobs/job-states.ts: statusIn with LIVE_STATUSES, RUNNING_STATUSES, fromStatuses), never typed by hand.',
        })),
        ...[
          "CallExpression[callee.property.name=/^(set|values|insert|save|upsert)$/] Property[key.name='status']",
          "CallExpression[callee.property.name='update'] > ObjectExpression ~ ObjectExpression > Property[key.name='status']",
        ].map((selector) => ({
          selector,
          message:
            "Only the job lifecycle writes a job's status: ask JobLifecycle for the transition (libs/batch/src/jobs/lifecycle).",
        })),
      ],
    },
  },
  {
    files: ['**/*.spec.ts', 'test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      // Tests read JSON bodies of HTTP answers; asserting on them is the point.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
