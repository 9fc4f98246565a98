import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';

const REPO = resolve(__dirname, '../../..');

/**
 * Where a person reads a command to type: the READMEs, docs/, the console's pages and the
 * CLI's own messages (its help and the hint after Ctrl-C).
 */
const PLACES = [
  'README.md',
  'docs',
  'libs/client/README.md',
  'libs/client/src/cli',
  'apps/console/src',
  'apps/verity/src',
  'bin',
];

/**
 * `npx verity`, `npx --no verity`, `npm exec -- verity`, `npm x verity`: outside the
 * repository (or with another `verity` in npm's cache) the name resolves to an unrelated npm
 * package, which would run with the API key in its environment.
 */
const NPX_VERITY = /\b(?:npx|npm\s+(?:exec|x))\s+(?:-[\w-]+(?:=\S+)?\s+)*(?:--\s+)?verity\b/;

async function files(path: string): Promise<string[]> {
  const full = join(REPO, path);
  const entries = await readdir(full, { recursive: true, withFileTypes: true }).catch(() => null);
  if (entries === null) return [full];
  return entries
    .filter((e) => e.isFile() && /\.(md|ts|tsx|js|html)$/.test(e.name) && !/\.spec\./.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

describe('documented commands', () => {
  it('never run verity through npx or npm exec, which can fetch a stranger’s package', async () => {
    const found: string[] = [];
    for (const place of PLACES)
      for (const file of await files(place)) {
        const lines = (await readFile(file, 'utf8')).split('\n');
        lines.forEach((line, i) => {
          if (NPX_VERITY.test(line)) found.push(`${relative(REPO, file)}:${i + 1}: ${line.trim()}`);
        });
      }
    assert.deepEqual(found, []);
  });

  it('the pattern catches each spelling', () => {
    for (const line of [
      'npx verity batch run a.csv',
      'npx --no verity ping',
      'npm exec --no -- verity ping',
      'npm x verity ping',
      '(<code>npx verity users create</code>)',
    ])
      assert.match(line, NPX_VERITY, line);
    for (const line of ['node bin/verity.js ping', './node_modules/.bin/verity ping'])
      assert.doesNotMatch(line, NPX_VERITY, line);
  });
});
