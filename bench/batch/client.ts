// HTTP side of the batch benchmark: accounts, streamed uploads, polling, result check.
import { openAsBlob } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** What one batch job cost, measured from the client. */
export interface JobTiming {
  id: string;
  rows: number;
  /** POST start → 202 (file streamed to the blob store, job created). */
  uploadMs: number;
  /** POST start → GET first shows `done`. */
  totalMs: number;
  /** POST start → GET first shows every row scored (the rest is assembly of the result file). */
  scoredMs: number;
  resultUrl: string;
}

/** Creates an account with `credits` through the admin API; returns its API key. */
export async function createAccount(
  base: string,
  adminToken: string,
  credits: number,
): Promise<string> {
  const res = await fetch(`${base}/admin/accounts`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench-batch', credits }),
  });
  if (res.status !== 201) throw new Error(`account creation: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { api_key: string }).api_key;
}

/**
 * POSTs `path` as a batch of `type` (the file is streamed from disk), with `fields` (e.g.
 * `column`) before the file; returns the job id.
 */
export async function postFile(
  base: string,
  apiKey: string,
  type: string,
  path: string,
  fields: Record<string, string> = {},
): Promise<string> {
  const form = new FormData();
  form.append('type', type);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('file', await openAsBlob(path, { type: 'text/csv' }), 'input.csv');
  const res = await fetch(`${base}/v1/batch`, {
    method: 'POST',
    body: form,
    headers: { 'x-api-key': apiKey },
  });
  const text = await res.text();
  if (res.status !== 202) throw new Error(`POST /v1/batch: ${res.status} ${text}`);
  return (JSON.parse(text) as { id: string }).id;
}

interface JobBody {
  status: string;
  processed_rows: number;
  total_rows: number;
  result_url: string | null;
}

/** Uploads `path` and polls the job every 100 ms until it is done (throws if it fails). */
export async function runJob(
  base: string,
  apiKey: string,
  type: string,
  path: string,
  timeoutMs: number,
  fields: Record<string, string> = {},
): Promise<JobTiming> {
  const t0 = performance.now();
  const id = await postFile(base, apiKey, type, path, fields);
  const uploadMs = performance.now() - t0;
  const deadline = Date.now() + timeoutMs;
  let scoredMs: number | undefined;
  for (;;) {
    const res = await fetch(`${base}/v1/batch/${id}`, { headers: { 'x-api-key': apiKey } });
    const body = (await res.json()) as JobBody;
    const now = performance.now() - t0;
    if (body.processed_rows >= body.total_rows) scoredMs ??= now;
    if (body.status === 'done' && body.result_url) {
      return {
        id,
        rows: body.total_rows,
        uploadMs,
        totalMs: now,
        scoredMs: scoredMs ?? now,
        resultUrl: body.result_url,
      };
    }
    if (body.status === 'failed') throw new Error(`job ${id} failed`);
    if (Date.now() > deadline)
      throw new Error(
        `job ${id} still ${body.status} (${body.processed_rows}/${body.total_rows}) after ${timeoutMs} ms`,
      );
    await sleep(100);
  }
}

/** Downloads a result and counts its lines (header included), streaming. */
export async function countResultLines(url: string): Promise<number> {
  const res = await fetch(url);
  if (!res.ok || !res.body) throw new Error(`download: ${res.status}`);
  let lines = 0;
  for await (const piece of res.body) {
    const buf = piece as Uint8Array;
    for (let i = 0; i < buf.length; i++) if (buf[i] === 10) lines++;
  }
  return lines;
}
