import { InvalidInputError } from '@verity/common';
import {
  LineBuffer,
  resultColumns,
  type ChunkMessage,
  type ResultRowInput,
  type VerdictCounter,
} from '@verity/batch';
import type { Engines } from '@verity/platform';
import type { ScoredRows } from './chunk-progress.reporter';
import { rowCountries } from './row-country';

/**
 * An email chunk scored with the SMTP probe, line by line: `retryable[i]` marks a row whose
 * mail server gave a temporary answer (greylisting, rate limits), which the retry window may
 * ask again (smtp-retry.window.ts). `lines[i]` is the row's full result line (its line ending
 * included) either way.
 */
export interface ProbedLines {
  lines: string[];
  retryable: boolean[];
}

/** How a chunk is scored beyond its message. */
export interface ChunkScoring {
  /** DNS lookups in flight per email chunk (BATCH_EMAIL_CONCURRENCY). */
  emailConcurrency: number;
  /** Rows scored so far, for progress reports. */
  scored?: ScoredRows;
  /** Ends the scoring (job ended, process stopping). */
  signal?: AbortSignal;
  /** A retry round's lines already settled (null: to score again); absent on a first pass. */
  held?: readonly (string | null)[];
  /** Counts the chunk's rows by verdict as they are scored (the job's summary). */
  verdicts: VerdictCounter;
}

/**
 * Scores one chunk into its result lines (no header) as UTF-8, one per row in row order: the
 * job's result columns (`fields`), after the row's raw input line for a multi-column job (whose
 * result columns leave out `input`). Email rows run
 * `emailConcurrency` at a time: the DNS resolver caches and coalesces, so a chunk's repeated
 * domains cost one query; a job with `smtp` then asks the mail servers for the whole chunk at
 * once (one session per host serves many rows) and gets its lines back unjoined, with the rows
 * a retry round may ask again (ProbedLines). Batch phone rows never run HLR; each is parsed
 * with its country (row-country.ts). An ip row that is not an address
 * becomes a `valid=false` row; any other engine error fails the chunk (it is retried).
 * `scored.rows` counts the email and phone rows scored so far, for the chunk's progress reports
 * (an ip chunk is scored without yielding to a timer, so no report could read it); `verdicts`
 * counts every row of the chunk by verdict, a retry round's settled rows from their lines.
 */
export async function scoreChunk(
  chunk: ChunkMessage,
  engines: Engines,
  scoring: ChunkScoring,
): Promise<Buffer | ProbedLines> {
  const scored = scoring.scored ?? { rows: 0 };
  const { verdicts } = scoring;
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
      const { held } = scoring;
      // A retry round asks again only about the rows not settled yet.
      const todo = held === undefined ? null : indexesOf(held);
      if (todo !== null) scored.rows += chunk.rows.length - todo.length;
      const checks = await engines.email.checkMany(
        todo === null ? chunk.rows : todo.map((i) => chunk.rows[i]),
        {
          smtp: chunk.smtp === true,
          concurrency: scoring.emailConcurrency,
          signal: scoring.signal,
          onRow: () => scored.rows++,
        },
      );
      if (chunk.smtp !== true) {
        for (let i = 0; i < checks.length; i++) {
          push(i, columns.line(checks[i].fields));
          verdicts.count<'email'>(checks[i].fields);
        }
        return out.toBuffer();
      }
      const lines = held === undefined ? new Array<string>(chunk.rows.length) : [...held];
      for (const line of held ?? []) if (line !== null) verdicts.countLine(line);
      const retryable = new Array<boolean>(chunk.rows.length).fill(false);
      for (let k = 0; k < checks.length; k++) {
        const i = todo === null ? k : todo[k];
        const cells = columns.line(checks[k].fields);
        lines[i] = inputLines === undefined ? cells : `${inputLines[i]},${cells}`;
        retryable[i] = checks[k].smtp?.evidence.retryable === true;
        verdicts.count<'email'>(checks[k].fields);
      }
      return { lines: lines as string[], retryable };
    }
    case 'phone': {
      const columns = resultColumns('phone', fields, withInput);
      const countryOf = rowCountries(chunk);
      for (let i = 0; i < chunk.rows.length; i++) {
        const result = await engines.phone.validate({
          phone: chunk.rows[i],
          country_hint: countryOf(i),
          hlr: false,
        });
        push(i, columns.line(result));
        verdicts.count<'phone'>(result);
        scored.rows++;
      }
      return out.toBuffer();
    }
    case 'ip': {
      const columns = resultColumns('ip', fields, withInput);
      for (let i = 0; i < chunk.rows.length; i++) {
        const row = chunk.rows[i];
        let result: ResultRowInput['ip'];
        try {
          result = engines.ip.lookup(row);
        } catch (error) {
          if (!(error instanceof InvalidInputError)) throw error;
          result = { invalidIp: row };
        }
        push(i, columns.line(result));
        verdicts.count<'ip'>(result);
      }
      return out.toBuffer();
    }
  }
}

/** The rows a retry round scores again: those not settled (null). */
function indexesOf(held: readonly (string | null)[]): number[] {
  const todo: number[] = [];
  for (let i = 0; i < held.length; i++) if (held[i] === null) todo.push(i);
  return todo;
}
