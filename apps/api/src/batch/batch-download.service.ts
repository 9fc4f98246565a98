import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import { BLOB_STORE, BlobNotFoundError, type BlobStore } from '@verity/ports';
import { BatchJobRepository, SigningSecretProvider, assertDownloadToken } from '@verity/batch';
import { VerityError } from '@verity/common';
import { BATCH_CONFIG, type BatchConfig } from '@verity/config';
import { isJobId } from './batch-upload.service';

/** A result file ready to stream. */
export interface ResultDownload {
  jobId: string;
  /** The uploaded file's name (null when none was sent), for the saved file's name. */
  fileName: string | null;
  /** A failed job's scored rows rather than a done job's result. */
  partial: boolean;
  body: Readable;
}

/**
 * GET /v1/batch/{id}/download?sig=…: the signature is the only credential. It is checked
 * first (constant time, no database read), so a forged link learns nothing about which job
 * ids exist. It serves a done job's result, or a failed job's partial file (its scored rows);
 * a valid signature for a job that is gone or has neither is 404, 503 with Retry-After for a
 * partial file its end effects are still writing, and for a file past
 * RESULT_RETENTION_DAYS 410 gone (decided from the job's end, even before the sweep deleted it).
 */
@Injectable()
export class BatchDownloadService {
  constructor(
    private readonly jobs: BatchJobRepository,
    private readonly secrets: SigningSecretProvider,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
  ) {}

  async open(jobId: string, sig: string | undefined): Promise<ResultDownload> {
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
    try {
      return { jobId, fileName: job.fileName, partial, body: await this.blobs.get(key) };
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
