import { setTimeout as sleep } from 'node:timers/promises';
import { BatchJobRepository, JobLifecycle, partKey } from '@verity/batch';
import { BLOB_STORE, type BlobStore } from '@verity/ports';
import type { TestClient, TestResponse, TestStack } from '../support';

/** Multipart fields of POST /v1/batch, sent in the given order. */
export type BatchField = [string, string] | ['file', string | Buffer];

/** POSTs a multipart batch request; fields go in the order given. */
export async function postBatch(
  client: TestClient,
  apiKey: string | undefined,
  fields: BatchField[],
  headers: Record<string, string> = {},
  fileName = 'input.csv',
): Promise<TestResponse> {
  const form = new FormData();
  for (const [name, value] of fields) {
    if (name === 'file') form.append('file', new Blob([value]), fileName);
    else form.append(name, value);
  }
  const res = await fetch(`${client.baseUrl}/v1/batch`, {
    method: 'POST',
    body: form,
    headers: { ...(apiKey ? { 'x-api-key': apiKey } : {}), ...headers },
  });
  const text = await res.text();
  const json =
    (res.headers.get('content-type') ?? '').includes('json') && text
      ? (JSON.parse(text) as unknown)
      : text;
  return { status: res.status, headers: res.headers, body: json };
}

/** Polls GET /v1/batch/{id} every `intervalMs` until the job ends; returns every observed body. */
export async function waitForJob(
  client: TestClient,
  id: string,
  timeoutMs = 60_000,
  intervalMs = 50,
): Promise<TestResponse[]> {
  const seen: TestResponse[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await client.get(`/v1/batch/${id}`);
    seen.push(res);
    if (res.status !== 200 || res.body.status === 'done' || res.body.status === 'failed')
      return seen;
    if (Date.now() > deadline)
      throw new Error(`job ${id} still ${res.body.status} after ${timeoutMs} ms`);
    await sleep(intervalMs);
  }
}

/** Waits until `check` returns a value (not undefined). */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/**
 * A BatchJob body with the signatures of its links left out: two reads a second apart sign
 * them with different expiries.
 */
export function unsigned<T>(job: T): T {
  const strip = (url: unknown) =>
    typeof url === 'string' ? url.replace(/([?&]sig=)[^&]*/, '$1…') : url;
  const body = job as Record<string, unknown>;
  return {
    ...body,
    result_url: strip(body.result_url),
    partial_result_url: strip(body.partial_result_url),
  } as T;
}

/** Downloads a result_url (no API key). */
export async function download(
  url: string,
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/**
 * A processing email job of `accountId` (debited `totalRows`) whose chunks 0 … parts.length-1
 * are scored and recorded, each part holding the result lines given: a job cut short after
 * scoring those rows (none of it went through the splitter or a scorer).
 */
export async function partlyScoredJob(
  stack: TestStack,
  accountId: string,
  id: string,
  totalRows: number,
  parts: string[][],
): Promise<void> {
  const lifecycle = stack.app.get(JobLifecycle);
  await lifecycle.create({
    id,
    accountId,
    keyId: null,
    type: 'email',
    totalRows,
    uploadKey: `uploads/${id}.csv`,
    webhookUrl: null,
    baseUrl: null,
    idempotencyKey: null,
    requestHash: null,
  });
  await lifecycle.start(id);
  const blobs = stack.app.get<BlobStore>(BLOB_STORE);
  for (const [n, lines] of parts.entries())
    await blobs.put(partKey(id, n), Buffer.from(lines.join('\n') + '\n'));
  await stack.app
    .get(BatchJobRepository)
    .recordChunks(parts.map((lines, chunkNo) => ({ jobId: id, chunkNo, rows: lines.length })));
}
