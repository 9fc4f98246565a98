import { basename, delimiter, dirname, isAbsolute, relative, resolve } from 'node:path';

/**
 * How this process was started, for the commands a message tells a person to run next:
 * `verity` when that name on PATH is this very script, else the script's own path (`node
 * bin/verity.js`, `./node_modules/.bin/verity`). Never a bare name the shell or npx could
 * resolve to another program.
 */
export function invocation(
  script: string = process.argv[1] ?? 'verity',
  cwd: string = process.cwd(),
  path: string = process.env.PATH ?? '',
): string {
  const full = resolve(cwd, script);
  const name = basename(full);
  if (path.split(delimiter).some((dir) => dir !== '' && resolve(cwd, dir) === dirname(full)))
    return name;
  const rel = relative(cwd, full);
  const shown = rel.startsWith('..') || isAbsolute(rel) ? full : `./${rel}`;
  return name.endsWith('.js') ? `node ${shown.replace(/^\.\//, '')}` : shown;
}
