#!/usr/bin/env node
// Builds the console (apps/console) into dist/console: a type check, then one esbuild bundle
// with content-hashed names (served with a year of immutable caching), an index.html that
// names them (served uncached) and the favicon. esbuild runs from its platform package
// (@esbuild/linux-x64 etc., an optional dependency), so it needs no install script.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const app = join(root, 'apps/console');
const out = join(root, 'dist/console');

const tsc = spawnSync(
  process.execPath,
  [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(app, 'tsconfig.json')],
  { stdio: 'inherit' },
);
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

rmSync(out, { recursive: true, force: true });
mkdirSync(join(out, 'assets'), { recursive: true });
const result = await build({
  entryPoints: [join(app, 'src/main.tsx')],
  bundle: true,
  minify: true,
  sourcemap: false,
  format: 'esm',
  target: 'es2020',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});
const files = Object.keys(result.metafile.outputs).map((f) => basename(f));
const js = files.find((f) => f.endsWith('.js'));
const css = files.find((f) => f.endsWith('.css'));
const html = readFileSync(join(app, 'index.html'), 'utf8')
  .replace('%JS%', `/console/assets/${js}`)
  .replace('%CSS%', `/console/assets/${css}`);
writeFileSync(join(out, 'index.html'), html);
copyFileSync(join(app, 'favicon.svg'), join(out, 'favicon.svg'));
const sizes = Object.entries(result.metafile.outputs)
  .map(([f, o]) => `${basename(f)} ${(o.bytes / 1024).toFixed(1)} KiB`)
  .join(', ');
if (process.env.npm_lifecycle_event !== 'test') console.log(`console: ${sizes}`);
