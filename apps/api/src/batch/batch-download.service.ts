import { pipeline, type Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORE, BlobNotFoundError, type BlobStore } from '@verity/ports';
import {
  BatchJobRepository,
  SigningSecretProvider,
  VerdictFilter,
  assertDownloadToken,
  filterResultRows,
  parseOnly,
} from '@verity/batch';
import { VerityError } from '@verity/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import type { BatchVerdict } from '@verity/contracts';
import { isJobId } from './batch-upload.service';

/** A result file ready to stream. */
export interface ResultDownload {
  jobId: string;
  /** The uploaded file's name (null when none was sent), for the saved file's name. */
  fileName: string | null;
  /** A failed job's scored rows rather than a done job's result. */
  partial: boolean;
  /** The verdicts `only=` kept, in the order given; null for the whole file. */
  only: BatchVerdict[] | null;
  body: Readable;
}

/**
 * GET /v1/batch/{id}/download?sig=…: the signature is the only credential. It is checked
 * first (constant time, no database read), so a forged link learns nothing about which job
 * ids exist. It serves a done job's result, or a failed job's partial file (its scored rows);
 * a valid signature for a job that is gone or has neither is 404, 503 with Retry-After for a
 * partial file its end effects are still writing, and for a file past
 * RESULT_RETENTION_DAYS 410 gone (decided from the job's end, even before the sweep deleted it).
 * `only=` (not signed: it narrows what the signature grants) keeps the rows of those verdicts,
 * in file order after the header; a verdict the job's type does not have is 400.
 */
@Injectable()
export class BatchDownloadService {
  constructor(
    private readonly jobs: BatchJobRepository,
    private readonly secrets: SigningSecretProvider,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
  ) {}

  async open(jobId: string, sig: string | undefined, only?: unknown): Promise<ResultDownload> {
    assertDownloadToken(jobId, sig, await this.secrets.secret(), Math.floor(Date.now() / 1000));
    const notFound = new VerityError('not_found', `batch job ${jobId} not found`);
    if (!isJobId(jobId)) throw notFound;
    const job = await this.jobs.findForWorker(jobId);
    const key =
      job?.status === 'done' ? job.resultKey : job?.status === 'failed' ? job.partialKey : null;
    if (!job || key === null) throw notFound;
    const retentionMs = this.config.RESULT_RETENTION_DAYS * 86_400_000;
    if (job.storagePurgedAt !== null || job.finishedAt!.getTime() + retentionMs <= Date.now()) {
      throw new VerityError(
        'gone',
        `the result of batch job ${jobId} has expired: results are kept ${this.config.RESULT_RETENTION_DAYS} days after the job ends`,
      );
    }
    const partial = job.status === 'failed';
    const verdicts = only === undefined ? null : parseOnly(job.type, only);
    try {
      // A partial file has the result file's columns: `only=` reads it alike.
      const file = await this.blobs.get(key);
      const head = { jobId, fileName: job.fileName, partial };
      if (verdicts === null) return { ...head, only: null, body: file };
      const filter = new VerdictFilter(job.type, job.resultFields, verdicts);
      // An error of either stream destroys both: the reply ends and the file is closed.
      const body = pipeline(file, filterResultRows(filter), () => undefined);
      return { ...head, only: [...verdicts], body };
    } catch (error) {
      if (!(error instanceof BlobNotFoundError)) throw error;
      // The failure named the file its end effects are writing (docs/batch.md, "Partial results").
      if (partial)
        throw new VerityError(
          'service_unavailable',
          `the partial file of batch job ${jobId} is being written; retry shortly`,
          { 'Retry-After': '2' },
        );
      throw notFound;
    }
  }
}
