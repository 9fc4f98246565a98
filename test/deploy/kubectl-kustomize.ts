// Renders a kustomization with the operators' own tool, `kubectl kustomize` (kustomize v5 is
// built into kubectl ≥ 1.27), so the tests check exactly what `kubectl apply -k` would send.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { asObject, at, repoRoot, type Json, type JsonObject, str } from './deploy-files';

/** Identity of a resource: apiVersion, kind and name. */
export function resourceId(r: JsonObject): string {
  return `${str(r.apiVersion)}/${str(r.kind)}/${str(at(r, 'metadata', 'name'))}`;
}

/** Runs kubectl, failing with what to install when it is missing (.ci/run installs it). */
export function kubectl(args: string[]): string {
  try {
    return execFileSync('kubectl', args, {
      cwd: repoRoot,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { stderr?: string };
    if (e.code === 'ENOENT')
      throw new Error('kubectl not found: install it (`.ci/run` does, see docs/operations.md)', {
        cause: error,
      });
    throw new Error(`kubectl ${args.join(' ')}: ${e.stderr ?? e.message}`, { cause: error });
  }
}

/** Builds a kustomization directory (repository-relative) into its list of resources. */
export function render(dir: string): JsonObject[] {
  const text = kubectl(['kustomize', join(repoRoot, dir)]);
  return parseAllDocuments(text).flatMap((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`${dir}#${i}: ${doc.errors[0]?.message}`);
    const value = doc.toJS() as Json;
    return value === null ? [] : [asObject(value, `${dir}#${i}`)];
  });
}
