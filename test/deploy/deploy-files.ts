import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/** The repository root: the nearest folder above this file whose package.json is Verity's (works from src and dist). */
export const repoRoot: string = (() => {
  let dir = __dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (
      existsSync(pkg) &&
      (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'verity'
    ) {
      return dir;
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('repository root not found');
    dir = up;
  }
})();

/** A plain JSON-like value as YAML or JSON parsing yields it. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type JsonObject = { [key: string]: Json };

/** Reads a repository file as text. */
export function readRepoFile(path: string): string {
  return readFileSync(join(repoRoot, path), 'utf8');
}

/** The deployables: each runs from the one image with its own command. */
export type DeployableApp = 'api' | 'ingest' | 'scorer';

/**
 * A deployable's command line (`node`, its V8 flags, its entry point) as package.json's
 * `start:<app>` script defines it: the reference that docker-compose, the Kubernetes manifests
 * and the test and benchmark processes all use.
 */
export function deployableCommand(app: DeployableApp): string[] {
  const pkg = JSON.parse(readRepoFile('package.json')) as { scripts: Record<string, string> };
  const script = pkg.scripts[`start:${app}`];
  if (!script?.startsWith('node '))
    throw new Error(`package.json has no start:${app} node command`);
  return script.split(' ').filter(Boolean);
}

/** Whether a repository path exists. */
export function repoPathExists(path: string): boolean {
  return existsSync(join(repoRoot, path));
}

/** Parses a one-document YAML file; merge keys (`<<: *anchor`) are resolved as Compose does. */
export function readYaml(path: string): JsonObject {
  return asObject(parse(readRepoFile(path), { merge: true }) as Json, path);
}

/** Parses every document of a multi-document YAML file, failing on any syntax error. */
export function readYamlDocuments(path: string): JsonObject[] {
  return parseAllDocuments(readRepoFile(path), { merge: true }).flatMap((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`${path}#${i}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as Json;
    return value === null ? [] : [asObject(value, `${path}#${i}`)];
  });
}

/** Narrows a value to an object or throws with where it came from. */
export function asObject(value: Json | undefined, where: string): JsonObject {
  if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`${where}: expected an object`);
  }
  return value;
}

/** Narrows a value to an array (undefined becomes empty). */
export function asArray(value: Json | undefined, where: string): Json[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new Error(`${where}: expected a list`);
  return value;
}

/** Reads a nested field by path, or undefined. */
export function at(value: Json | undefined, ...path: (string | number)[]): Json | undefined {
  let cur: Json | undefined = value;
  for (const key of path) {
    if (cur === null || cur === undefined || typeof cur !== 'object') return undefined;
    cur = Array.isArray(cur) ? cur[Number(key)] : cur[String(key)];
  }
  return cur;
}

/** A scalar as text; objects and lists as JSON so a wrong shape is visible in messages. */
export function str(value: Json | undefined): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
