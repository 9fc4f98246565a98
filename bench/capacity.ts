// `npm run capacity -- --rows-per-second N`: the replica plan for a target batch throughput, from
// the latest `npm run bench:batch` figures (bench/results/batch-latest.json). The model and its
// assumptions: docs/scaling.md.
//
// Options: --rows-per-second N (required), --figures PATH, --utilisation 0.7 (planned fraction
// of a core per replica), --scorer-concurrency 2, --chunk-rows 10000 (the deployment's settings).
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BATCH_KINDS, loadBenchFigures } from './capacity/bench-figures';
import { DEFAULT_PLAN_OPTIONS, planReplicas, type ReplicaPlan } from './capacity/replica-plan';

const DEFAULT_FIGURES = join(__dirname, '..', '..', 'bench', 'results', 'batch-latest.json');

function number(name: string, raw: string | undefined, fallback?: number): number {
  if (raw === undefined && fallback !== undefined) return fallback;
  const n = Number(raw);
  if (raw === undefined || !Number.isFinite(n) || n <= 0) {
    throw new Error(
      `--${name} needs a positive number${raw === undefined ? '' : `, not "${raw}"`}`,
    );
  }
  return n;
}

const int = (n: number) => Math.ceil(n).toLocaleString('en-US');
const dec = (n: number) => (n < 10 ? n.toFixed(2) : n.toFixed(1));

const ROWS: [string, (p: ReplicaPlan) => string][] = [
  ['scorer replicas', (p) => int(p.scorer.replicas)],
  ['  scorer cores', (p) => dec(p.scorer.cores)],
  ['ingest replicas', (p) => int(p.ingest.replicas)],
  ['  ingest cores', (p) => dec(p.ingest.cores)],
  ['  one job at most, rows/s', (p) => int(p.ingest.perJobCeilingRowsPerSecond)],
  ['api cores (uploads)', (p) => dec(p.api.cores)],
  ['kafka partitions', (p) => int(p.kafka.partitions)],
  ['  broker cores', (p) => dec(p.kafka.brokerCores)],
  ['  messages/s', (p) => int(p.kafka.messagesPerSecond)],
  ['S3 requests/s', (p) => int(p.s3.requestsPerSecond)],
  ['  S3 MB/s', (p) => dec(p.s3.megabytesPerSecond)],
  ['  S3 USD per million rows', (p) => `$${p.s3.usdPerMillionRows.toFixed(4)}`],
  ['  self-hosted S3 cores', (p) => dec(p.s3.selfHostedCores)],
  ['PostgreSQL statements/s', (p) => int(p.postgres.statementsPerSecond)],
  ['  PostgreSQL cores', (p) => dec(p.postgres.cores)],
  ['Redis cores', (p) => dec(p.redis.cores)],
];

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'rows-per-second': { type: 'string' },
      figures: { type: 'string', default: DEFAULT_FIGURES },
      utilisation: { type: 'string' },
      'scorer-concurrency': { type: 'string' },
      'chunk-rows': { type: 'string' },
    },
  });
  const rowsPerSecond = number('rows-per-second', values['rows-per-second']);
  const options = {
    ...DEFAULT_PLAN_OPTIONS,
    utilisation: number('utilisation', values.utilisation, DEFAULT_PLAN_OPTIONS.utilisation),
    scorerConcurrency: number(
      'scorer-concurrency',
      values['scorer-concurrency'],
      DEFAULT_PLAN_OPTIONS.scorerConcurrency,
    ),
    chunkRows: number('chunk-rows', values['chunk-rows'], DEFAULT_PLAN_OPTIONS.chunkRows),
  };
  const figures = await loadBenchFigures(values.figures);
  const plans = BATCH_KINDS.map((k) => planReplicas(figures.kinds[k], rowsPerSecond, options));

  console.log(
    `capacity plan for ${int(rowsPerSecond)} rows/s of one kind at a time\n` +
      `figures: ${values.figures}\n` +
      `  measured ${figures.measuredAt}, scale ${figures.scale}, ${figures.host.cpus} cores, node ${figures.host.node}\n` +
      `each replica planned at ${Math.round(options.utilisation * 100)} % of one core, at least 1 scorer and 2 ingest (deploy/k8s); ` +
      `BATCH_SCORER_CONCURRENCY=${options.scorerConcurrency}, BATCH_CHUNK_ROWS=${options.chunkRows}\n`,
  );
  const width = Math.max(...ROWS.map(([label]) => label.length)) + 2;
  console.log(''.padEnd(width) + BATCH_KINDS.map((k) => k.padStart(12)).join(''));
  for (const [label, cell] of ROWS) {
    console.log(label.padEnd(width) + plans.map((p) => cell(p).padStart(12)).join(''));
  }
  console.log(
    '\nA mix of kinds needs the sum of each kind’s share, e.g. 60 % email + 40 % phone: ' +
      '0.6 × the email column + 0.4 × the phone column. S3 cost prices every request as a PUT.',
  );
}

main().catch((err: unknown) => {
  console.error(`capacity: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
