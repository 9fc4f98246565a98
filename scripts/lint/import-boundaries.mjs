// ESLint rule `verity/import-boundaries`: who may import whom, decided on the file each import
// resolves to (relative specifiers and @verity/* aliases alike, so `../../../test/support`
// is caught as surely as `@verity/testing`).
//   - production code in libs/ never imports test code (test/, bench/, *.spec.ts) nor apps/,
//     and reaches another library only through its @verity/* entry;
//   - production code in apps/X imports libraries and apps/X only, never test code; the one
//     exception is apps/verity (the all-in-one CLI), which may import each other app's
//     declared entry module (APP_ENTRIES) and nothing else of it;
//   - engines do no I/O: libs/validation imports, of the libraries, only @verity/common and
//     @verity/contracts (never an adapter), and neither Nest, TypeORM nor a Node module that
//     opens a socket, a file or a process (DNS, HLR and data sets are injected);
//   - ports never import adapters: libs/ports/src/ports/ never imports libs/ports/src/adapters/;
//   - a client library of an external system (kafkajs, Bull, the AWS SDK, ioredis, pg) is
//     imported only by its adapters (CLIENT_LIBRARIES), where its client is created;
//   - only test code imports the test runner (node:test);
//   - test code (*.spec.ts, test/, bench/) may import anything.
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

/** The file of each app that apps/verity may import to boot that app in its own process. */
export const APP_ENTRIES = {
  api: 'apps/api/src/create-api-app.ts',
  ingest: 'apps/ingest/src/ingest.module.ts',
  scorer: 'apps/scorer/src/scorer.module.ts',
};

/** The libraries libs/validation (the engines) may import. */
const ENGINE_LIBS = new Set(['validation', 'common', 'contracts']);

/** Packages the engines never import: Nest, TypeORM, and Node's sockets, files and processes. */
const ENGINE_IO =
  /^(@nestjs\/|typeorm$|(node:)?(net|dgram|fs|fs\/promises|http|https|http2|tls|dns|dns\/promises|child_process|cluster|worker_threads)$)/;

/**
 * Client libraries of external systems, each with the files that alone may import it: its
 * adapters (CONTRIBUTING.md, "Every external system behind a port").
 */
const CLIENT_LIBRARIES = [
  {
    packages: /^(kafkajs|bull|@aws-sdk\/|@smithy\/)/,
    adapters: /^libs\/ports\/src\/adapters\//,
    where: 'libs/ports/src/adapters/',
  },
  {
    packages: /^ioredis(\/|$)/,
    adapters: /(^|\/)redis\.[^/]+\.ts$/,
    where: 'a redis.*.ts adapter',
  },
  {
    packages: /^pg(-[a-z]+)?(\/|$)/,
    adapters: /^(libs\/database\/|libs\/accounts\/src\/notification\.listener\.ts$)/,
    where: 'libs/database/ (and the LISTEN connection, notification.listener.ts)',
  },
];

const ALIASES = Object.fromEntries(
  Object.entries(
    JSON.parse(readFileSync(resolve(ROOT, 'tsconfig.json'), 'utf8')).compilerOptions.paths,
  ).map(([alias, [target]]) => [alias, target]),
);

const repoPath = (abs) => relative(ROOT, abs).split(sep).join('/');
const isTestCode = (p) => /\.spec(\.ts)?$/.test(p) || /^(test|bench)(\/|$)/.test(p);
const appOf = (p) => /^apps\/([^/]+)\//.exec(p)?.[1];
const libOf = (p) => /^libs\/([^/]+)\//.exec(p)?.[1];

/** The repo path an import specifier names, or null for a package from node_modules. */
function target(spec, fromFile) {
  if (spec.startsWith('.')) return repoPath(resolve(dirname(fromFile), spec));
  if (ALIASES[spec]) return ALIASES[spec];
  return null;
}

/** Why `from` may not import `to` (repo paths), or null when it may. */
export function violation(from, to, relativeSpecifier) {
  if (isTestCode(from) || to.startsWith('node_modules/')) return null;
  const toTest = isTestCode(to);
  if (libOf(from)) {
    if (toTest) return 'production code in libs/ never imports test code';
    if (to.startsWith('apps/')) return 'libs/ never import apps/';
    if (relativeSpecifier && libOf(to) && libOf(to) !== libOf(from)) {
      return `import libs/${libOf(to)} through its @verity/${libOf(to)} entry, not its files`;
    }
    if (libOf(from) === 'validation' && libOf(to) && !ENGINE_LIBS.has(libOf(to))) {
      return 'engines do no I/O: libs/validation imports only @verity/common and @verity/contracts';
    }
    if (from.startsWith('libs/ports/src/ports/') && to.startsWith('libs/ports/src/adapters/')) {
      return 'ports never import adapters';
    }
    return null;
  }
  const app = appOf(from);
  if (app) {
    if (toTest) return 'production code in apps/ never imports test code';
    const other = appOf(to);
    if (other && other !== app) {
      if (app === 'verity' && APP_ENTRIES[other] === to.replace(/(\.ts)?$/, '.ts')) return null;
      return app === 'verity'
        ? `apps/verity imports apps/${other} only through ${APP_ENTRIES[other] ?? 'its entry module'}`
        : `apps/${app} never imports another app (apps/${other})`;
    }
  }
  return null;
}

/** Why `from` (repo path) may not import the package `spec`, or null when it may. */
export function packageViolation(from, spec) {
  if (isTestCode(from)) return null;
  if (/^node:test(\/|$)/.test(spec)) return 'only specs, test/ and bench/ import the test runner';
  if (libOf(from) === 'validation' && ENGINE_IO.test(spec)) {
    return 'engines do no I/O: libs/validation never imports Nest, TypeORM or Node I/O modules';
  }
  for (const client of CLIENT_LIBRARIES) {
    if (client.packages.test(spec) && !client.adapters.test(from)) {
      return `a client library is imported only by its adapters (${client.where})`;
    }
  }
  return null;
}

const rule = {
  meta: {
    type: 'problem',
    docs: { description: 'Layer boundaries between libs, apps and test code (CONTRIBUTING.md)' },
    schema: [],
    messages: { boundary: '{{reason}}: {{spec}}' },
  },
  create(context) {
    const from = repoPath(context.filename);
    const check = (node, source) => {
      if (source?.type !== 'Literal' || typeof source.value !== 'string') return;
      const spec = source.value;
      const to = target(spec, context.filename);
      const reason =
        to === null ? packageViolation(from, spec) : violation(from, to, spec.startsWith('.'));
      if (reason) context.report({ node, messageId: 'boundary', data: { reason, spec } });
    };
    return {
      ImportDeclaration: (node) => check(node, node.source),
      ExportAllDeclaration: (node) => check(node, node.source),
      ExportNamedDeclaration: (node) => check(node, node.source),
      ImportExpression: (node) => check(node, node.source),
      TSImportType: (node) => check(node, node.argument?.literal ?? node.argument),
      TSExternalModuleReference: (node) => check(node, node.expression),
    };
  },
};

export default { meta: { name: 'verity' }, rules: { 'import-boundaries': rule } };
