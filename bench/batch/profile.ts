// Summary of a V8 .cpuprofile by self time, with categories that matter for the batch pipeline.
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
const CATEGORIES: [string, RegExp][] = [
  ['kafka client (kafkajs)', /node_modules\/kafkajs/],
  ['s3 client (aws-sdk, smithy)', /node_modules\/(@aws-sdk|@smithy|@aws-crypto)/],
  ['redis/bull', /node_modules\/(bull|ioredis)/],
  ['postgres (pg, typeorm)', /node_modules\/(pg|pg-protocol|pg-pool|pg-types|typeorm)\//],
  [
    'csv reading (fast-csv, chunk reader)',
    /node_modules\/@?fast-csv|libs\/batch\/src\/csv\/(chunk|csv)/,
  ],
  ['result row formatting', /libs\/batch\/src\/csv\/(result|csv\.cell)/],
  ['upload inspection', /libs\/batch\/src\/csv\/upload|apps\/api\/src\/batch/],
  [
    'phone engine (libphonenumber)',
    /node_modules\/libphonenumber|libs\/validation\/src\/phone|phone-data/,
  ],
  [
    'email engine',
    /libs\/validation\/src\/email|node_modules\/(punycode|tr46)|integrations\/src\/dns/,
  ],
  ['ip engine (mmdb)', /node_modules\/(maxmind|mmdb-lib)|libs\/validation\/src\/ip|ip-data/],
  ['logging (pino)', /node_modules\/(pino|sonic-boom|thread-stream)/],
  ['metrics (prom-client)', /node_modules\/prom-client|libs\/observability/],
  [
    'http server (fastify, busboy)',
    /node_modules\/(fastify|@fastify|busboy|@fastify\/busboy|find-my-way|avvio)/,
  ],
  ['nest, rxjs', /node_modules\/(@nestjs|rxjs)/],
  ['batch adapters & jobs', /libs\/batch\/src/],
  ['scorer / ingest app code', /apps\/(scorer|ingest)\/src/],
  ['other verity code', /dist\/(libs|apps)/],
  ['other node_modules', /node_modules/],
  ['node core (net, streams, zlib)', /^node:|internal\//],
];

function categoryOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (url === '')
    return functionName.startsWith('(') ? functionName : 'native (JSON, regexp, Buffer, ...)';
  for (const [name, pattern] of CATEGORIES) if (pattern.test(url)) return name;
  return 'other';
}

function shortUrl(url: string): string {
  const i = url.lastIndexOf('node_modules/');
  if (i >= 0) return url.slice(i + 'node_modules/'.length);
  const d = url.indexOf('/dist/');
  return d >= 0 ? url.slice(d + 6) : url.replace(/^file:\/\//, '');
}

/** Busy seconds, self time by category, inclusive by category, and the top self-time functions. */
export async function summariseProfile(path: string, top = 15): Promise<string> {
  const profile = JSON.parse(await readFile(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  let total = 0;
  let idle = 0;
  const fnSelf = new Map<string, number>();
  const catSelf = new Map<string, number>();
  const catIncl = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    total += us;
    if (node.callFrame.functionName === '(idle)') {
      idle += us;
      continue;
    }
    const key = `${node.callFrame.functionName || '(anonymous)'} ${shortUrl(node.callFrame.url)}:${node.callFrame.lineNumber + 1}`;
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + us);
    const cat = categoryOf(node);
    catSelf.set(cat, (catSelf.get(cat) ?? 0) + us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur))
      seen.add(categoryOf(byId.get(cur)!));
    for (const c of seen) if (!c.startsWith('(')) catIncl.set(c, (catIncl.get(c) ?? 0) + us);
  }
  const busy = total - idle;
  const pct = (us: number) => `${((100 * us) / busy).toFixed(1).padStart(5)}%`;
  const out = [
    `${path}: sampled ${(total / 1e6).toFixed(1)} s, busy ${(busy / 1e6).toFixed(1)} s (% of busy)`,
  ];
  out.push('  self time by category:');
  for (const [c, us] of [...catSelf].sort((a, b) => b[1] - a[1]).slice(0, 12))
    out.push(`    ${pct(us)}  ${c}`);
  out.push('  inclusive by category:');
  for (const [c, us] of [...catIncl].sort((a, b) => b[1] - a[1]).slice(0, 10))
    out.push(`    ${pct(us)}  ${c}`);
  out.push(`  top ${top} functions by self time:`);
  for (const [k, us] of [...fnSelf].sort((a, b) => b[1] - a[1]).slice(0, top))
    out.push(`    ${pct(us)}  ${k}`);
  return out.join('\n');
}
