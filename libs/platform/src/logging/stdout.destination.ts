import pino from 'pino';

/** pino's level number for warn. */
const WARN = 40;

/** Asks pino to set `lastLevel` on the stream before each write (as pino.multistream does). */
const NEEDS_METADATA = Symbol.for('pino.metadata');

/** Lines below warn are gathered into writes of about this size. */
const BATCH_BYTES = 16_384;

let shared: pino.DestinationStream | undefined;
/** Until the process serves, every line is written at once (see {@link batchLogLines}). */
let batching = false;

/**
 * From now on lines below warn are gathered ({@link stdoutDestination}). Called once a process
 * serves: while it starts, each step's line shows when it happens, for whoever watches the
 * start (or acts on it), and the start writes few lines.
 */
export function batchLogLines(): void {
  batching = true;
}

/**
 * The process's stdout for JSON lines, shared by every logger of the process. Once it serves,
 * lines below warn are gathered into ~16 KiB writes (one write(2) per line cost ~10% of a busy API's CPU, and
 * one per 4 KiB still 1.5%); a warn, error or fatal line is written at once, synchronously,
 * together with the lines gathered before it (order is kept). So a process killed with SIGKILL loses at most 16 KiB of info
 * lines and never a warning: the lines an operator needs after a crash. What is gathered is
 * also written when the process exits (process.exit, a signal handler, an uncaught error).
 */
export function stdoutDestination(): pino.DestinationStream {
  if (shared) return shared;
  // Synchronous writes (sonic-boom retries EAGAIN): nothing sits in a write queue that a crash
  // would lose, and a flush cannot be overtaken. The lines are gathered here rather than in
  // sonic-boom's own buffer (minLength), which measures the whole pending string on every
  // write: with 16 KiB pending that re-flattened ~8 KiB per line, a third of all a single API
  // call allocated.
  const out = pino.destination({ dest: 1, sync: true });
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (pending.length === 0) return;
    const batch = pending.join('');
    pending = [];
    size = 0;
    try {
      out.write(batch);
    } catch {
      // stdout is gone (EPIPE, closed): nowhere to write, and logging must not throw.
    }
  };
  const stream = {
    [NEEDS_METADATA]: true,
    lastLevel: 0,
    write(line: string): void {
      pending.push(line);
      size += line.length;
      if (!batching || size >= BATCH_BYTES || stream.lastLevel >= WARN) flush();
    },
  };
  process.on('exit', flush);
  shared = stream;
  return stream;
}
