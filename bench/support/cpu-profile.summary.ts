import { readFile } from 'node:fs/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Owners of CPU time, matched on the script URL (first match wins). */
export type ProfileCategories = readonly (readonly [string, RegExp])[];

/** Coarse owners of an API server's CPU time. */
export const API_CATEGORIES: ProfileCategories = [
  ['logging (pino)', /node_modules\/(pino|sonic-boom|thread-stream|fast-redact|@pinojs)/],
  [
    'metrics (prom-client)',
    /node_modules\/(prom-client|tdigest|bintrees)|libs\/observability|apps\/api\/src\/metrics/,
  ],
  [
    'postgres client (pg, typeorm)',
    /node_modules\/(pg|pg-protocol|pg-pool|pg-types|postgres-|typeorm)\//,
  ],
  ['nest (router, guards, pipes, DI)', /node_modules\/(@nestjs|rxjs|reflect-metadata)/],
  [
    'fastify (http, routing, hooks)',
    /node_modules\/(fastify|@fastify|find-my-way|light-my-request|avvio|fast-json-stringify|secure-json-parse|toad-cache|fastq)/,
  ],
  ['zod (body validation)', /node_modules\/zod/],
  [
    'email engine & validation libs',
    /libs\/(validation|integrations)|node_modules\/(punycode|tr46|disposable|email-providers|role-based|dns-packet)/,
  ],
  ['accounts (keys, credits)', /libs\/accounts/],
  ['api app code', /apps\/api\/src/],
  ['other verity code', /dist\/(libs|apps)/],
  ['other node_modules', /node_modules/],
  ['node core (net, http, streams)', /^node:|internal\//],
];

function categoryOf(node: ProfileNode, categories: ProfileCategories): string {
  const { url, functionName } = node.callFrame;
  if (url === '') {
    if (functionName.startsWith('(')) return functionName; // (garbage collector), (idle), (program)
    return 'native/builtin (JSON, crypto, regexp, ...)';
  }
  for (const [name, pattern] of categories) if (pattern.test(url)) return name;
  return 'other';
}

/** A V8 profile frame as `function file:line`, the file from node_modules or dist on. */
export function frameLabel(frame: {
  functionName: string;
  url: string;
  lineNumber: number;
}): string {
  return `${frame.functionName || '(anonymous)'}  ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length);
  const d = url.indexOf('/dist/');
  return d >= 0 ? url.slice(d + 1) : url.replace(/^file:\/\//, '');
}

/**
 * Summarises a V8 .cpuprofile: self time by function (top N), self time by category, and
 * inclusive time by category (the share of samples with at least one frame of the category on
 * the stack, i.e. what that layer costs including what it calls).
 */
export async function summariseCpuProfile(
  path: string,
  options: { categories: ProfileCategories; top?: number; lastSeconds?: number },
): Promise<string> {
  const { categories, top = 25, lastSeconds = Infinity } = options;
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const byId = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes) {
    byId.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  // Only the final `lastSeconds` (the load), so boot-time module loading does not dilute it.
  const spanUs = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const fromUs = spanUs - lastSeconds * 1e6;
  const selfUs = new Map<number, number>();
  let atUs = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    atUs += delta;
    if (atUs >= fromUs) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
  });
  const totalUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const idleUs = [...selfUs.entries()]
    .filter(([id]) => byId.get(id)?.callFrame.functionName === '(idle)')
    .reduce((a, [, us]) => a + us, 0);
  const busyUs = totalUs - idleUs;

  const fnSelf = new Map<string, number>();
  const catSelf = new Map<string, number>();
  const catIncl = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    const key = frameLabel(node.callFrame);
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
    const cat = categoryOf(node, categories);
    catSelf.set(cat, (catSelf.get(cat) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      seen.add(categoryOf(byId.get(cur)!, categories));
    }
    for (const c of seen) catIncl.set(c, (catIncl.get(c) ?? 0) + us);
  }
  const pct = (us: number) => `${((100 * us) / busyUs).toFixed(1).padStart(5)}%`;
  const lines: string[] = [];
  lines.push(`profile ${path}`);
  lines.push(
    `sampled ${(totalUs / 1e6).toFixed(1)} s, busy (non-idle) ${(busyUs / 1e6).toFixed(1)} s; percentages are of busy time`,
  );
  lines.push('', 'self time by category:');
  for (const [c, us] of [...catSelf].sort((a, b) => b[1] - a[1]))
    if (c !== '(idle)') lines.push(`  ${pct(us)}  ${c}`);
  lines.push('', 'inclusive time by category (frame of the category anywhere on the stack):');
  for (const [c, us] of [...catIncl].sort((a, b) => b[1] - a[1]))
    if (c !== '(idle)' && !c.startsWith('(')) lines.push(`  ${pct(us)}  ${c}`);
  lines.push('', `top ${top} functions by self time:`);
  for (const [k, us] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, top + 1)) {
    if (k.startsWith('(idle)')) continue;
    lines.push(`  ${pct(us)}  ${k}`);
  }
  return lines.join('\n');
}
