#!/usr/bin/env node
// `npm run build`: compiles to dist/ (tsc, tsc-alias), builds the client package (libs/client/dist)
// and bundles the console (scripts/build-console.mjs); skipped when nothing it reads has changed
// since the last complete build, so `npm start` and `npm test` start at once on an unchanged tree.
// Outputs whose source file is gone are removed first. The fingerprint is a hash of every file under the source folders plus the root manifests and
// the installed TypeScript; it is written (dist/.build-fingerprint) only after every step has
// passed. `--force` builds anyway.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const stampFile = join(root, 'dist', '.build-fingerprint');
const SOURCES = ['apps', 'libs', 'test', 'bench', 'scripts'];
const MANIFESTS = [
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'node_modules/typescript/package.json',
];
/** Outputs and installs inside the source folders, never inputs. */
const SKIPPED = new Set(['node_modules', 'dist']);

function walk(dir, out) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

function fingerprint() {
  const hash = createHash('sha256');
  const files = [
    ...SOURCES.flatMap((dir) => walk(join(root, dir), [])),
    ...MANIFESTS.map((f) => join(root, f)),
  ];
  for (const file of files.sort()) {
    if (!existsSync(file)) continue;
    hash.update(relative(root, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/**
 * Removes what tsc once wrote for a source file that is gone (tsc never deletes): a spec
 * deleted or renamed would otherwise still run from dist/.
 */
function pruneOrphans() {
  for (const dir of SOURCES) {
    const out = join(root, 'dist', dir);
    if (!existsSync(out)) continue;
    for (const file of walk(out, [])) {
      const stem = /^(.*)\.(js|js\.map|d\.ts)$/.exec(relative(join(root, 'dist'), file))?.[1];
      if (stem === undefined) continue;
      if (!existsSync(join(root, `${stem}.ts`)) && !existsSync(join(root, `${stem}.tsx`)))
        rmSync(file);
    }
  }
}

function run(args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const wanted = fingerprint();
const built = existsSync(stampFile) ? readFileSync(stampFile, 'utf8').trim() : null;
if (built === wanted && !process.argv.includes('--force')) {
  if (!process.argv.includes('--quiet'))
    console.log('build: up to date (nothing changed since the last build)');
  process.exit(0);
}
rmSync(stampFile, { force: true });
pruneOrphans();
const bin = (name) => join(root, 'node_modules', name);
run([bin('typescript/bin/tsc'), '-p', 'tsconfig.json']);
run([bin('tsc-alias/dist/bin/index.js'), '-p', 'tsconfig.json']);
run([bin('typescript/bin/tsc'), '-p', 'libs/client/tsconfig.build.json']);
run([bin('tsc-alias/dist/bin/index.js'), '-p', 'libs/client/tsconfig.build.json']);
run([join(root, 'scripts/build-console.mjs')]);
writeFileSync(stampFile, wanted + '\n');
