import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AppConfig } from '@verity/config';
import { parseList, validateList } from './ip-list.parsers';
import { listSources } from './ip-list.sources';
import { resolveIpPaths } from './ip-data.paths';

/** Options of updateIpData. */
export interface IpDataUpdateOptions {
  /** Injected fetch (tests, proxies); defaults to the global fetch. */
  readonly fetch?: typeof fetch;
  /** Only these source ids; default all. */
  readonly only?: readonly string[];
  /** Per-download timeout; default 30 s. */
  readonly timeoutMs?: number;
  /** Refuse bodies larger than this; default 64 MiB. */
  readonly maxBytes?: number;
}

/** Outcome for one source. */
export interface IpDataUpdateResult {
  readonly id: string;
  readonly url: string;
  readonly status: 'updated' | 'failed';
  readonly entries: number | null;
  readonly error: string | null;
}

/**
 * Downloads fresh copies of the open-data lists into IP_DATA_DIR. Each file is validated
 * (see validateList) and then written to a temporary file and renamed over the old one, so a
 * reader never sees a partial file and a bad download never replaces a good list. A running
 * engine picks the new files up on its next poll (IP_DATA_POLL_MS) or on reload().
 */
export async function updateIpData(
  config: AppConfig,
  opts: IpDataUpdateOptions = {},
): Promise<IpDataUpdateResult[]> {
  const doFetch = opts.fetch ?? fetch;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const { dataDir } = resolveIpPaths(config);
  const sources = listSources(config).filter(
    (s) => opts.only === undefined || opts.only.includes(s.id),
  );
  const results: IpDataUpdateResult[] = [];
  for (const s of sources) {
    try {
      const res = await doFetch(s.url, {
        signal: AbortSignal.timeout(timeoutMs),
        redirect: 'follow',
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = Buffer.from(await res.arrayBuffer());
      if (body.length > maxBytes) throw new Error(`body larger than ${maxBytes} bytes`);
      const text = body.toString('utf8');
      const parsed = parseList(s.format, text);
      const problem = validateList(parsed);
      if (problem !== null) throw new Error(`rejected: ${problem}`);
      await writeAtomic(join(dataDir, s.file), body);
      results.push({
        id: s.id,
        url: s.url,
        status: 'updated',
        entries: parsed.ranges.length + parsed.asns.length,
        error: null,
      });
    } catch (e) {
      results.push({
        id: s.id,
        url: s.url,
        status: 'failed',
        entries: null,
        error: e instanceof Error ? e.message : String(e),
      });
    }
  }
  return results;
}

async function writeAtomic(path: string, body: Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, body, { flush: true });
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}
