// Debian's `prometheus` on loopback for tests: a temporary config and data directory, static
// scrape targets, Verity's alerting rules loaded, and the HTTP API to evaluate PromQL.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { stringify } from 'yaml';
import { ALERTS_FILE } from './observability-queries';
import { freePort } from '../distributed/process-harness';
import { repoRoot } from './deploy-files';

/** One instant-vector sample of a query result. */
export interface Sample {
  readonly metric: Record<string, string>;
  readonly value: [number, string];
}

/** What /api/v1/query answered: the samples, or the expression error. */
export type QueryResult =
  | { readonly ok: true; readonly samples: Sample[] }
  | { readonly ok: false; readonly error: string };

/** A rule as /api/v1/rules reports it after evaluating it. */
export interface RuleStatus {
  readonly name: string;
  readonly health: string;
  readonly lastError?: string;
  readonly lastEvaluation: string;
}

export interface TestPrometheus {
  readonly url: string;
  query(expr: string): Promise<QueryResult>;
  /** Polls `expr` until it returns at least one sample; the samples, or the last result on timeout. */
  waitForSeries(expr: string, timeoutMs?: number): Promise<QueryResult>;
  rules(): Promise<RuleStatus[]>;
  stop(): Promise<void>;
}

/** Scrape targets by job name (`host:port`). */
export type ScrapeTargets = Record<string, string[]>;

/**
 * Starts Prometheus scraping `targets` every second and evaluating alerts.yml every second,
 * and waits until it answers /-/ready. Its log goes to the temporary directory, kept on failure
 * when KEEP_LOGS=1.
 */
export async function startPrometheus(targets: ScrapeTargets): Promise<TestPrometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'verity-prometheus-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const config = {
    global: { scrape_interval: '1s', scrape_timeout: '1s', evaluation_interval: '1s' },
    rule_files: [join(repoRoot, ALERTS_FILE)],
    scrape_configs: Object.entries(targets).map(([job, hosts]) => ({
      job_name: job,
      static_configs: [{ targets: hosts }],
    })),
  };
  await writeFile(join(dir, 'prometheus.yml'), stringify(config));
  const log = createWriteStream(join(dir, 'prometheus.log'));
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new Error('prometheus not found: apt-get install prometheus (.ci/run does)')
          : e,
      ),
    );
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await spawned;

  const deadline = Date.now() + 60_000;
  while (
    !(await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    ))
  ) {
    if (child.exitCode !== null)
      throw new Error(`prometheus exited with ${child.exitCode}; see ${dir}/prometheus.log`);
    if (Date.now() > deadline) throw new Error(`prometheus not ready; see ${dir}/prometheus.log`);
    await sleep(100);
  }

  const api = async (path: string) => {
    const res = await fetch(`${url}${path}`);
    return (await res.json()) as { status: string; error?: string; data?: unknown };
  };
  const query = async (expr: string): Promise<QueryResult> => {
    const body = await api(`/api/v1/query?query=${encodeURIComponent(expr)}`);
    if (body.status !== 'success') return { ok: false, error: body.error ?? body.status };
    const data = body.data as { resultType: string; result: Sample[] | [number, string] };
    return { ok: true, samples: data.resultType === 'vector' ? (data.result as Sample[]) : [] };
  };
  return {
    url,
    query,
    async waitForSeries(expr, timeoutMs = 60_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const result = await query(expr);
        if (!result.ok || result.samples.length > 0 || Date.now() > until) return result;
        await sleep(250);
      }
    },
    async rules() {
      const body = await api('/api/v1/rules?type=alert');
      const groups = (body.data as { groups: { rules: RuleStatus[] }[] }).groups;
      return groups.flatMap((g) => g.rules);
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      if (process.env.KEEP_LOGS !== '1') await rm(dir, { recursive: true, force: true });
    },
  };
}
