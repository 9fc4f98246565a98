import type { Readable } from 'node:stream';
import { Inject, Injectable } from '@nestjs/common';
import {
  BLOB_STORE,
  BatchJobRepository,
  BlobNotFoundError,
  SigningSecretProvider,
  assertDownloadToken,
  type BlobStore,
} from '@verity/batch';
import { VerityError } from '@verity/common';
import type { BatchType } from '@verity/contracts';
import { isJobId } from './batch-upload.service';

/** A result file ready to stream. */
export interface ResultDownload {
  jobId: string;
  type: BatchType;
  body: Readable;
}

/**
 * GET /v1/batch/{id}/download?sig=…: the signature is the only credential. It is checked
 * first (constant time, no database read), so a forged link learns nothing about which job
 * ids exist; a valid signature for a job that is gone or not done is 404.
 */
@Injectable()
export class BatchDownloadService {
  constructor(
    private readonly jobs: BatchJobRepository,
    private readonly secrets: SigningSecretProvider,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
  ) {}

  async open(jobId: string, sig: string | undefined): Promise<ResultDownload> {
    assertDownloadToken(jobId, sig, await this.secrets.secret(), Math.floor(Date.now() / 1000));
    const notFound = new VerityError('not_found', `batch job ${jobId} not found`);
    if (!isJobId(jobId)) throw notFound;
    const job = await this.jobs.findForWorker(jobId);
    if (!job || job.status !== 'done' || job.resultKey === null) throw notFound;
    try {
      return { jobId, type: job.type, body: await this.blobs.get(job.resultKey) };
    } catch (error) {
      if (error instanceof BlobNotFoundError) throw notFound;
      throw error;
    }
  }
}
