// The subset of kustomize the Verity manifests use, so the overlay can be checked offline:
// resources (files and directories with a kustomization.yaml), strategic-merge patches
// (maps merged deeply, lists of named objects merged by name, other lists replaced),
// `namespace` and `images`. Anything else in a kustomization fails loudly.
import { posix } from 'node:path';
import {
  asArray,
  asObject,
  at,
  readYaml,
  readYamlDocuments,
  repoPathExists,
  type Json,
  type JsonObject,
  str,
} from './deploy-files';

const SUPPORTED = new Set(['apiVersion', 'kind', 'resources', 'patches', 'namespace', 'images']);
/** Kinds that live outside namespaces (kustomize leaves their metadata alone). */
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
]);

/** Identity of a resource: apiVersion, kind and name. */
export function resourceId(r: JsonObject): string {
  return `${str(r.apiVersion)}/${str(r.kind)}/${str(at(r, 'metadata', 'name'))}`;
}

/** Strategic merge of `patch` into `base`, the way kubectl merges the built-in types used here. */
export function strategicMerge(base: Json | undefined, patch: Json): Json {
  if (Array.isArray(patch)) {
    if (!Array.isArray(base)) return patch;
    const named = (v: Json) => typeof at(v, 'name') === 'string';
    if (!patch.every(named) || !base.every(named)) return patch;
    const out = [...base];
    for (const item of patch) {
      const i = out.findIndex((b) => at(b, 'name') === at(item, 'name'));
      if (i >= 0) out[i] = strategicMerge(out[i], item);
      else out.push(item);
    }
    return out;
  }
  if (patch !== null && typeof patch === 'object') {
    const b = base !== null && typeof base === 'object' && !Array.isArray(base) ? base : {};
    const out: JsonObject = { ...b };
    for (const [k, v] of Object.entries(patch))
      out[k] = v === null ? null : strategicMerge(b[k], v);
    for (const [k, v] of Object.entries(out)) if (v === null) delete out[k];
    return out;
  }
  return patch;
}

/** Builds a kustomization directory (repository-relative) into its list of resources. */
export function build(dir: string): JsonObject[] {
  const k = readYaml(posix.join(dir, 'kustomization.yaml'));
  for (const key of Object.keys(k))
    if (!SUPPORTED.has(key)) throw new Error(`${dir}: unsupported ${key}`);
  let out: JsonObject[] = [];
  for (const entry of asArray(k.resources, 'resources').map(str)) {
    const path = posix.normalize(posix.join(dir, entry));
    if (repoPathExists(posix.join(path, 'kustomization.yaml'))) out.push(...build(path));
    else out.push(...readYamlDocuments(path));
  }
  for (const p of asArray(k.patches, 'patches')) {
    const patchPath = posix.join(dir, str(at(p, 'path')));
    for (const patch of readYamlDocuments(patchPath)) {
      const id = resourceId(patch);
      const i = out.findIndex((r) => resourceId(r) === id);
      if (i < 0) throw new Error(`${patchPath}: no resource ${id} to patch`);
      out[i] = asObject(strategicMerge(out[i], patch), id);
    }
  }
  if (typeof k.namespace === 'string') {
    const ns = k.namespace;
    out = out.map((r) =>
      CLUSTER_SCOPED.has(str(r.kind))
        ? r
        : asObject(strategicMerge(r, { metadata: { namespace: ns } }), 'ns'),
    );
  }
  for (const img of asArray(k.images, 'images'))
    out = out.map((r) => retag(r, asObject(img, 'image')));
  return out;
}

/** Applies one `images` entry to every container of a workload. */
function retag(resource: JsonObject, img: JsonObject): JsonObject {
  const copy = structuredClone(resource);
  const containers = at(copy, 'spec', 'template', 'spec', 'containers');
  for (const raw of Array.isArray(containers) ? containers : []) {
    const container = asObject(raw, 'container');
    const [name, tag] = str(container.image).split(':');
    if (name !== img.name) continue;
    const newName = typeof img.newName === 'string' ? img.newName : name;
    const newTag = img.newTag === undefined ? tag : str(img.newTag);
    container.image = newTag === undefined ? newName : `${newName}:${newTag}`;
  }
  return copy;
}
