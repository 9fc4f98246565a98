import { VerityError } from '@verity/common';
import { formatResultRow, LineBuffer, type ChunkMessage } from '@verity/batch';
import type { Engines } from '@verity/platform';
import type { ScoredRows } from './chunk-progress.reporter';

/**
 * Maps `items` with at most `limit` calls in flight; results keep the input order. `done.rows`
 * counts the calls that have finished.
 */
export async function mapBounded<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  done: ScoredRows = { rows: 0 },
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
      done.rows++;
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/**
 * Scores one chunk into its result lines (no header) as UTF-8, one per row in row order. Email rows run
 * `emailConcurrency` at a time: the DNS resolver caches and coalesces, so a chunk's repeated
 * domains cost one query. Batch phone rows never run HLR. An ip row that is not an address
 * becomes a `valid=false` row; any other engine error fails the chunk (it is retried).
 * `scored.rows` counts the email and phone rows scored so far, for the chunk's progress reports
 * (an ip chunk is scored without yielding to a timer, so no report could read it).
 */
export async function scoreChunk(
  chunk: ChunkMessage,
  engines: Engines,
  emailConcurrency: number,
  scored: ScoredRows = { rows: 0 },
): Promise<Buffer> {
  const lines = new LineBuffer();
  switch (chunk.type) {
    case 'email': {
      const rows = await mapBounded(
        chunk.rows,
        emailConcurrency,
        (row) => engines.email.validate(row),
        scored,
      );
      for (const r of rows) lines.push(formatResultRow('email', r));
      return lines.toBuffer();
    }
    case 'phone': {
      for (const row of chunk.rows) {
        lines.push(
          formatResultRow('phone', await engines.phone.validate({ phone: row, hlr: false })),
        );
        scored.rows++;
      }
      return lines.toBuffer();
    }
    case 'ip': {
      for (const row of chunk.rows) {
        try {
          lines.push(formatResultRow('ip', engines.ip.lookup(row)));
        } catch (error) {
          if (!(error instanceof VerityError && error.code === 'unprocessable')) throw error;
          lines.push(formatResultRow('ip', { invalidIp: row }));
        }
      }
      return lines.toBuffer();
    }
  }
}
