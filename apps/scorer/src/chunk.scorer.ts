import { VerityError } from '@verity/common';
import { LineBuffer, resultColumns, type ChunkMessage } from '@verity/batch';
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
 * Scores one chunk into its result lines (no header) as UTF-8, one per row in row order: the
 * job's result columns (`fields`), after the row's raw input line for a multi-column job (whose
 * result columns leave out `input`). Email rows run
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
  const out = new LineBuffer();
  const fields = chunk.fields ?? 'spec';
  const inputLines = chunk.lines;
  const withInput = inputLines === undefined;
  // A multi-column row keeps its input line as it was uploaded, then the result cells.
  const push =
    inputLines === undefined
      ? (_i: number, cells: string) => out.push(cells)
      : (i: number, cells: string) => out.push(`${inputLines[i]},${cells}`);
  switch (chunk.type) {
    case 'email': {
      const columns = resultColumns('email', fields, withInput);
      const rows = await mapBounded(
        chunk.rows,
        emailConcurrency,
        (row) => engines.email.validate(row),
        scored,
      );
      for (let i = 0; i < rows.length; i++) push(i, columns.line(rows[i]));
      return out.toBuffer();
    }
    case 'phone': {
      const columns = resultColumns('phone', fields, withInput);
      for (let i = 0; i < chunk.rows.length; i++) {
        const result = await engines.phone.validate({ phone: chunk.rows[i], hlr: false });
        push(i, columns.line(result));
        scored.rows++;
      }
      return out.toBuffer();
    }
    case 'ip': {
      const columns = resultColumns('ip', fields, withInput);
      for (let i = 0; i < chunk.rows.length; i++) {
        const row = chunk.rows[i];
        try {
          push(i, columns.line(engines.ip.lookup(row)));
        } catch (error) {
          if (!(error instanceof VerityError && error.code === 'unprocessable')) throw error;
          push(i, columns.line({ invalidIp: row }));
        }
      }
      return out.toBuffer();
    }
  }
}
