import { Readable } from 'node:stream';
import type { BlobStore } from '@verity/ports';
import { resultHeader, type ResultFileFormat } from '../csv';
import type { BatchJobRecord } from './batch-job.record';
import { partKey } from './batch-names';

/** Parts fetched ahead of the one being written (each is one chunk's rows, ~0.1–1 MB). */
const READ_AHEAD = 4;

/** A job's result file format, from what the upload stored (docs/batch.md, "Result columns"). */
export function resultFileFormat(
  job: Pick<BatchJobRecord, 'type' | 'resultFields' | 'inputColumn' | 'inputHeader' | 'inputWidth'>,
): ResultFileFormat {
  return {
    type: job.type,
    fields: job.resultFields,
    input:
      job.inputColumn === null || job.inputWidth === null
        ? null
        : { header: job.inputHeader, width: job.inputWidth },
  };
}

/**
 * A result file as a stream: the header (`resultHeader`), then the parts of `chunks` in the
 * order given (the assembler's 0 … n-1; a failed job's partial file, its recorded chunks in
 * ascending order). Up to READ_AHEAD parts are fetched at once, so the blob store's
 * per-request latency is paid in parallel, while memory holds at most that many parts. The
 * bytes depend only on the parts, so a re-run writes a byte-identical file.
 */
export function resultFile(
  blobs: BlobStore,
  jobId: string,
  format: ResultFileFormat,
  chunks: readonly number[],
): Readable {
  async function* lines(): AsyncGenerator<Buffer> {
    yield Buffer.from(resultHeader(format), 'utf8');
    const ahead: Promise<Buffer[]>[] = [];
    let next = 0;
    const fetchNext = () => {
      const part = blobs.get(partKey(jobId, chunks[next++])).then(pieces);
      part.catch(() => undefined); // awaited in order below; never an unhandled rejection
      ahead.push(part);
    };
    try {
      while (next < chunks.length && ahead.length < READ_AHEAD) fetchNext();
      while (ahead.length > 0) {
        const part = await ahead.shift()!;
        if (next < chunks.length) fetchNext();
        yield* part;
      }
    } finally {
      // Stopped early (an error downstream): let the fetches still running settle quietly.
      await Promise.allSettled(ahead);
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

/**
 * A part's body as the buffers it arrived in: the upload gathers them into its own parts, so
 * joining them here (stream/consumers' buffer() goes through a Blob: two more copies) is waste.
 */
async function pieces(body: Readable): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const piece of body as AsyncIterable<Buffer>) out.push(piece);
  return out;
}
