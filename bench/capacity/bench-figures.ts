// The figures `npm run bench:batch` writes to bench/results/batch-latest.json, as the capacity
// plan reads them. Validated on load, so a stale or hand-edited file fails with its field named.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';

const perMillion = z.number().nonnegative();

const kindFigures = z.object({
  rows: z.number().int().positive(),
  scorers: z.number().int().positive(),
  wallSeconds: z.number().positive(),
  cpuSecondsPerMillionRows: z.object({
    api: perMillion,
    ingest: perMillion,
    scorersTotal: z.number().positive(),
    kafka: perMillion,
    s3proxy: perMillion,
    postgres: perMillion,
    redis: perMillion,
  }),
  s3: z.object({ requestsPerMillionRows: perMillion, bytesPerMillionRows: perMillion }),
  postgresStatementsPerMillionRows: perMillion,
});

export const BATCH_KINDS = ['email', 'phone', 'ip'] as const;
export type BatchKind = (typeof BATCH_KINDS)[number];

const benchFigures = z.object({
  measuredAt: z.string(),
  scale: z.number().positive(),
  host: z.object({ cpus: z.number().int().positive(), node: z.string() }).loose(),
  kinds: z.object({ email: kindFigures, phone: kindFigures, ip: kindFigures }),
});

export type KindFigures = z.infer<typeof kindFigures>;
export type BenchFigures = z.infer<typeof benchFigures>;

export function parseBenchFigures(json: unknown): BenchFigures {
  const parsed = benchFigures.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('; ');
    throw new Error(`bench figures are not in the expected shape (${where})`);
  }
  return parsed.data;
}

export async function loadBenchFigures(path: string): Promise<BenchFigures> {
  return parseBenchFigures(JSON.parse(await readFile(path, 'utf8')));
}
