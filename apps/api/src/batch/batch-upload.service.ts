import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@verity/accounts';
import {
  BATCH_NAMES,
  type BatchNames,
  BatchJobsService,
  ingestJobId,
  JobLifecycle,
  type NewJobInput,
  type TableFormat,
  type UploadLimits,
  uploadKey,
  validateWebhookUrl,
  type BatchJobRecord,
} from '@verity/batch';
import { BLOB_STORE, JOB_QUEUE, type BlobStore, type JobQueue } from '@verity/ports';
import { VerityError } from '@verity/common';
import {
  CORE_CONFIG,
  type CoreConfig,
  SMTP_CONFIG,
  type SmtpConfig,
  BATCH_CONFIG,
  type BatchConfig,
} from '@verity/config';
import { BATCH_TYPES, type BatchResultFields, type BatchType } from '@verity/contracts';
import { publicBaseUrl } from '../http/public-url';
import {
  checkResultFields,
  checkSmtp,
  checkTableFormat,
  readFormatField,
  requestHash,
  type FormatFields,
} from './batch-form';
import { multipartError, StorageFailure } from './multipart-errors';
import { isMultipart, multipartParts, type MultipartLimits } from './multipart-parts';
import { multipartLimits } from './multipart.setup';
import { rereadUpload, storeUpload, type StoredFile } from './upload-storage';
import { uploadFileName } from './upload-file-name';

/** What the multipart body held once the file is stored. */
interface ReceivedUpload {
  type: BatchType;
  webhookUrl: string | null;
  /** The file part's name, cleaned (`uploadFileName`). */
  fileName: string | null;
  rows: number;
  /** The file's SHA-256 (hex), only when an Idempotency-Key asks for replay detection. */
  sha256: string | null;
  /** The format fields as sent (for the request hash). */
  form: FormatFields;
  /** A multi-column file's resolved format; null for a single-column file. */
  input: NewJobInput | null;
  resultFields: BatchResultFields;
  /** The job asks mail servers about its addresses (`smtp`). */
  smtpProbe: boolean;
  /** `column` came after the file: the stored file must be read again in this format. */
  reread: TableFormat | null;
}

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

const JOB_ID = /^job_[0-9a-f]{32}$/;

/** A new job id: unguessable, so knowing one tells nothing about others. */
export function newJobId(): string {
  return `job_${randomUUID().replace(/-/g, '')}`;
}

/** True for ids `newJobId` can mint; anything else names no job and needs no query. */
export function isJobId(value: string): boolean {
  return JOB_ID.test(value);
}

function isBatchType(value: string): value is BatchType {
  return (BATCH_TYPES as readonly string[]).includes(value);
}

function checkType(value: string | undefined): BatchType {
  if (value === undefined || value === '') {
    throw new VerityError('validation_error', 'type is required: one of email, phone, ip');
  }
  if (!isBatchType(value))
    throw new VerityError('validation_error', 'type must be one of email, phone, ip');
  return value;
}

/**
 * POST /v1/batch: streams the file part through the upload inspector into the blob store
 * (never whole in memory), then creates the job (debit + insert in one transaction) and hands
 * it to the splitter. Any refusal deletes the stored upload, so it leaves nothing behind.
 */
@Injectable()
export class BatchUploadService {
  private readonly log = new Logger('BatchUpload');
  private readonly limits: MultipartLimits;
  /** The upload's limits (BATCH_MAX_ROWS, BATCH_MAX_BYTES). */
  private readonly storage: UploadLimits;

  constructor(
    private readonly jobs: BatchJobsService,
    private readonly lifecycle: JobLifecycle,
    @Inject(BLOB_STORE) private readonly blobs: BlobStore,
    @Inject(JOB_QUEUE) private readonly queue: JobQueue,
    @Inject(BATCH_CONFIG) private readonly config: BatchConfig,
    @Inject(CORE_CONFIG) private readonly core: CoreConfig,
    @Inject(SMTP_CONFIG) private readonly smtp: SmtpConfig,
    @Inject(BATCH_NAMES) private readonly names: BatchNames,
  ) {
    this.limits = multipartLimits(config);
    this.storage = { maxRows: config.BATCH_MAX_ROWS, maxBytes: config.BATCH_MAX_BYTES };
  }

  async create(
    principal: Principal,
    request: FastifyRequest,
  ): Promise<{ job: BatchJobRecord; created: boolean }> {
    const idempotencyKey = this.idempotencyKey(request);
    if (!isMultipart(request)) {
      throw new VerityError(
        'validation_error',
        'Content-Type must be multipart/form-data with fields type and file',
      );
    }
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
      throw new VerityError(
        'validation_error',
        'Content-Encoding is not supported; send the body as is',
      );
    }
    await this.jobs.assertCanStart(principal.accountId, idempotencyKey);
    const jobId = newJobId();
    const key = uploadKey(jobId);
    let stored = false;
    try {
      // The file is hashed only for an Idempotency-Key: nothing else compares requests, and
      // SHA-256 costs 36 ms of CPU per million-email upload (docs/benchmarks.md, "Batch engine").
      const digest = idempotencyKey !== null;
      const received = await this.receive(request, key, digest, () => (stored = true));
      // `column` came after the file: read the stored file again, now in its format.
      const upload =
        received.reread === null
          ? received
          : {
              ...received,
              ...(await rereadUpload(this.blobs, this.storage, key, received.reread)),
            };
      const hash =
        upload.sha256 === null
          ? null
          : requestHash(upload.type, upload.webhookUrl, upload.sha256, upload.form);
      const outcome = await this.lifecycle.create({
        id: jobId,
        accountId: principal.accountId,
        keyId: principal.keyId,
        mode: principal.mode,
        type: upload.type,
        totalRows: upload.rows,
        uploadKey: key,
        fileName: upload.fileName,
        webhookUrl: upload.webhookUrl,
        baseUrl: publicBaseUrl(this.core.PUBLIC_URL, request),
        idempotencyKey,
        requestHash: hash,
        input: upload.input,
        resultFields: upload.resultFields,
        smtpProbe: upload.smtpProbe,
      });
      if (!outcome.created) {
        await this.blobs.delete(key);
        return outcome;
      }
      await this.enqueue(jobId);
      return outcome;
    } catch (error) {
      if (stored)
        await this.blobs
          .delete(key)
          .catch((e: unknown) => this.log.error(`cannot delete ${key}: ${String(e)}`));
      throw error;
    }
  }

  /** Enqueue failures are not the client's problem: ingest's recovery sweep finds queued jobs. */
  private async enqueue(jobId: string): Promise<void> {
    try {
      await this.queue.add(
        this.names.ingestQueue,
        { jobId },
        { jobId: ingestJobId(jobId), attempts: 5, backoffMs: 2_000 },
      );
    } catch (error) {
      this.log.warn(
        `job ${jobId} committed but not enqueued (recovery will pick it up): ${String(error)}`,
      );
    }
  }

  private idempotencyKey(request: FastifyRequest): string | null {
    const raw = request.headers['idempotency-key'];
    if (raw === undefined) return null;
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined || !IDEMPOTENCY_KEY.test(value)) {
      throw new VerityError(
        'validation_error',
        'Idempotency-Key must be 1 to 255 printable ASCII characters',
      );
    }
    return value;
  }

  /**
   * Reads the body under an idle timer: a body that stops arriving for BODY_IDLE_TIMEOUT_MS
   * is cut with 408. The timeout is delivered as an error of the request stream, which the
   * multipart parser passes to the part being read, so everything unwinds through one path.
   * Parser errors become 400 (or 413); blob store failures stay internal.
   */
  private async receive(
    request: FastifyRequest,
    key: string,
    digest: boolean,
    onStored: () => void,
  ): Promise<ReceivedUpload> {
    const raw = request.raw;
    const onIdle = () =>
      raw.emit(
        'error',
        new VerityError(
          'request_timeout',
          `no body data for ${this.core.BODY_IDLE_TIMEOUT_MS} ms; the upload was cut`,
          { Connection: 'close' },
        ),
      );
    // On the request, not the socket: node:http destroys a timed-out socket unless the
    // request has a 'timeout' listener, and we still want to answer.
    raw.setTimeout(this.core.BODY_IDLE_TIMEOUT_MS, onIdle);
    try {
      return await this.readParts(request, key, digest, onStored);
    } catch (error) {
      if (error instanceof StorageFailure) throw error.error;
      throw multipartError(error);
    } finally {
      raw.setTimeout(0);
      raw.removeListener('timeout', onIdle);
    }
  }

  /**
   * Reads the parts in whatever order they come; the file is stored as soon as it arrives. The
   * fields sent before it are checked first, so a bad request is not uploaded, and a known
   * `column` reads the file as a multi-column file on the way in. A `column` sent after the
   * file is honoured too: the stored file is then read again in that format before the job is
   * created (docs/batch.md, "Multi-column files").
   */
  private async readParts(
    request: FastifyRequest,
    key: string,
    digest: boolean,
    onStored: () => void,
  ): Promise<ReceivedUpload> {
    let type: string | undefined;
    let webhook: string | undefined;
    const form: FormatFields = {};
    let file: StoredFile | undefined;
    let fileName: string | null = null;
    for await (const part of multipartParts(request.raw, this.limits)) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          throw new VerityError(
            'validation_error',
            `unexpected file field "${part.fieldname}"; send the CSV as "file"`,
          );
        }
        if (file) throw new VerityError('validation_error', 'send exactly one file');
        // Fields sent before the file are checked first, so a bad request is not uploaded.
        if (type !== undefined) checkType(type);
        if (webhook !== undefined) validateWebhookUrl(webhook, this.config.WEBHOOK_ALLOW_PRIVATE);
        checkResultFields(form.fields);
        checkSmtp(
          form.smtp,
          type === undefined ? undefined : checkType(type),
          this.smtp.EMAIL_SMTP_PROBE,
        );
        const format = checkTableFormat(form, false);
        fileName = uploadFileName(part.fileName);
        file = await storeUpload(this.blobs, this.storage, part.file, key, digest, format);
        onStored();
        continue;
      }
      if (part.valueTruncated)
        throw new VerityError('validation_error', `field ${part.fieldname} is too long`);
      if (part.fieldname === 'type') type = part.value.trim();
      else if (part.fieldname === 'webhook_url') webhook = part.value.trim();
      else readFormatField(form, part.fieldname, part.value);
    }
    // The file's own refusal comes first, as when the file was checked on the way in.
    if (file?.refusal && form.column === undefined) throw file.refusal;
    const checkedType = checkType(type);
    if (!file) throw new VerityError('validation_error', 'file is required: a CSV file');
    const webhookUrl =
      webhook === undefined || webhook === ''
        ? null
        : validateWebhookUrl(webhook, this.config.WEBHOOK_ALLOW_PRIVATE).toString();
    const resultFields = checkResultFields(form.fields);
    const smtpProbe = checkSmtp(form.smtp, checkedType, this.smtp.EMAIL_SMTP_PROBE);
    const format = checkTableFormat(form, true);
    return {
      type: checkedType,
      webhookUrl,
      fileName,
      rows: file.rows,
      sha256: file.sha256,
      form,
      input: file.input,
      resultFields,
      smtpProbe,
      reread: format !== null && file.input === null ? format : null,
    };
  }
}
