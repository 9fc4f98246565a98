import { Readable } from 'node:stream';
import { csvHeader, partKey, type BlobStore } from '@verity/batch';
import type { BatchType } from '@verity/contracts';

/**
 * The result file as a stream: the header, then the parts of chunks 0 … n-1 in order, each
 * read only when the previous one is done, so memory holds one part buffer at a time. The
 * bytes depend only on the parts, so a re-run writes a byte-identical file.
 */
export function resultFile(
  blobs: BlobStore,
  jobId: string,
  type: BatchType,
  chunks: number,
): Readable {
  async function* lines(): AsyncGenerator<Buffer> {
    yield Buffer.from(csvHeader(type), 'utf8');
    for (let chunkNo = 0; chunkNo < chunks; chunkNo++) {
      const part = await blobs.get(partKey(jobId, chunkNo));
      for await (const piece of part) yield piece as Buffer;
    }
  }
  return Readable.from(lines(), { objectMode: false });
}
