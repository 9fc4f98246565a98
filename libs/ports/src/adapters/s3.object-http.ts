import { createHash, createHmac, type BinaryLike } from 'node:crypto';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { S3ServiceException, type S3Client } from '@aws-sdk/client-s3';
import { SignatureV4 } from '@smithy/signature-v4';
import { jitteredBackoffMs } from '@verity/common';

/** Attempts per request, base and cap of the backoff between them: the SDK's standard mode. */
const MAX_ATTEMPTS = 3;
const BACKOFF_BASE_MS = 100;
const BACKOFF_CAP_MS = 20_000;
/** Sockets per origin, as the SDK's own handler keeps. */
const MAX_SOCKETS = 50;
/** Most of an error answer's body read for its code and message. */
const MAX_ERROR_BODY = 64 * 1024;
/** SHA-256 of the empty payload: what a request without a body signs. */
const EMPTY_SHA256 = createHash('sha256').digest('hex');
/** Answers that say "try again", with the S3 error codes that mean the same. */
const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
const RETRY_CODES = new Set(['SlowDown', 'RequestTimeout', 'InternalError', 'ServiceUnavailable']);

/** What SignatureV4 hands its hash: a string or bytes. */
type SourceData = string | ArrayBuffer | ArrayBufferView;

function binary(data: SourceData): BinaryLike {
  if (typeof data === 'string') return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/** The hash constructor SignatureV4 takes, on node:crypto (HMAC when given a secret). */
class NodeSha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', binary(secret));
  }
  update(data: SourceData): void {
    this.hash.update(binary(data));
  }
  digest(): Promise<Uint8Array> {
    return Promise.resolve(this.hash.digest());
  }
}

/** Where the bucket's objects live and how requests to it are signed, resolved once. */
interface Target {
  /** The bucket's URL; an object's is this plus its encoded key. */
  base: URL;
  signer: SignatureV4;
}

interface Attempt {
  method: 'GET' | 'PUT';
  key: string;
  /** Query parameters (UploadPart's partNumber and uploadId). */
  query?: Record<string, string>;
  /** A body as the pieces it arrived in: written one after another, never joined. */
  body?: readonly Buffer[];
}

/** RFC 3986 escaping, as S3 and the signer canonicalise paths and queries (encodes !'()* too). */
function escape(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function byteLength(pieces: readonly Buffer[]): number {
  let n = 0;
  for (const piece of pieces) n += piece.length;
  return n;
}

/** A transport error (no answer) marked as the SDK marks it, so it is told apart the same way. */
function asS3Error<E>(error: E, attempts: number): E {
  if (error instanceof S3ServiceException) return error; // an answer: its $metadata is set
  if (typeof error === 'object' && error !== null)
    Object.assign(error, { $metadata: { attempts } });
  return error;
}

function xmlField(xml: string, field: string): string | undefined {
  return new RegExp(`<${field}>([^<]*)</${field}>`).exec(xml)?.[1];
}

/** An S3 error answer as the SDK would throw it: name = S3's code, status in $metadata. */
async function errorOf(res: IncomingMessage, attempts: number): Promise<S3ServiceException> {
  const pieces: Buffer[] = [];
  let size = 0;
  for await (const piece of res as AsyncIterable<Buffer>) {
    if (size < MAX_ERROR_BODY) pieces.push(piece);
    size += piece.length;
  }
  const xml = Buffer.concat(pieces).toString('utf8');
  const status = res.statusCode ?? 0;
  const code = xmlField(xml, 'Code') ?? (status === 404 ? 'NotFound' : `Http${status}`);
  return new S3ServiceException({
    name: code,
    $fault: status >= 500 ? 'server' : 'client',
    message: xmlField(xml, 'Message') ?? `S3 answered ${status}`,
    $metadata: {
      httpStatusCode: status,
      requestId: res.headers['x-amz-request-id'] as string | undefined,
      attempts,
    },
  });
}

function retryable(error: unknown): boolean {
  if (error instanceof S3ServiceException) {
    return RETRY_STATUSES.has(error.$metadata.httpStatusCode ?? 0) || RETRY_CODES.has(error.name);
  }
  return true; // no answer at all: a socket error
}

/**
 * GetObject, PutObject and UploadPart, signed with the SDK's own SigV4 signer and sent with
 * node:http, without the SDK's per-request middleware (endpoint rules, serde, retry, auth and
 * checksum steps): about 1.3 ms of CPU less per GET and 1.8 ms per PUT of a 600 kB chunk part
 * (docs/benchmarks.md, "Batch engine"). Bodies go as the pieces they were read in, so
 * no part is copied into one buffer first; the pieces are kept until the answer, which makes
 * every attempt replayable. The endpoint, region and credentials are the S3Client's own (its
 * provider chain, refreshed as it refreshes them); retries follow the SDK's standard mode;
 * errors are the SDK's S3ServiceException, so callers cannot tell the two paths apart.
 */
export class S3ObjectHttp {
  private target: Promise<Target> | undefined;
  private readonly agents = {
    http: new HttpAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
    https: new HttpsAgent({ keepAlive: true, maxSockets: MAX_SOCKETS }),
  };

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly options: { endpoint?: string; forcePathStyle?: boolean },
  ) {}

  /** The object's body, streamed; a non-2xx answer (404 included) throws S3ServiceException. */
  get(key: string): Promise<IncomingMessage> {
    return this.send({ method: 'GET', key });
  }

  async put(key: string, body: readonly Buffer[]): Promise<void> {
    (await this.send({ method: 'PUT', key, body })).resume();
  }

  /** One part of a multipart upload; returns its ETag, which completing the upload names. */
  async uploadPart(
    key: string,
    uploadId: string,
    partNumber: number,
    body: readonly Buffer[],
  ): Promise<string> {
    const query = { partNumber: String(partNumber), uploadId };
    const res = await this.send({ method: 'PUT', key, query, body });
    res.resume();
    const etag = res.headers.etag;
    if (!etag) throw new Error(`S3 answered part ${partNumber} of ${key} without an ETag`);
    return etag;
  }

  close(): void {
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  private async send(attempt: Attempt): Promise<IncomingMessage> {
    for (let n = 1; ; n++) {
      try {
        const res = await this.once(attempt, n);
        if ((res.statusCode ?? 0) < 300) return res;
        throw await errorOf(res, n);
      } catch (error) {
        if (n >= MAX_ATTEMPTS || !retryable(error)) throw asS3Error(error, n);
        await sleep(jitteredBackoffMs(n, BACKOFF_BASE_MS, BACKOFF_CAP_MS));
      }
    }
  }

  private async once(
    { method, key, query = {}, body }: Attempt,
    attempts: number,
  ): Promise<IncomingMessage> {
    const { base, signer } = await this.resolve();
    const path = `${base.pathname.replace(/\/$/, '')}/${key.split('/').map(escape).join('/')}`;
    const headers: Record<string, string> = {
      host: base.host,
      'x-amz-content-sha256': body ? 'UNSIGNED-PAYLOAD' : EMPTY_SHA256,
    };
    if (body) headers['content-length'] = String(byteLength(body));
    const signed = await signer.sign({
      method,
      protocol: base.protocol,
      hostname: base.hostname,
      port: base.port ? Number(base.port) : undefined,
      path,
      query,
      headers,
    });
    const search = Object.entries(query)
      .map(([name, value]) => `${escape(name)}=${escape(value)}`)
      .join('&');
    const https = base.protocol === 'https:';
    return new Promise<IncomingMessage>((resolve, reject) => {
      const req = (https ? httpsRequest : httpRequest)(
        {
          agent: https ? this.agents.https : this.agents.http,
          host: base.hostname,
          port: base.port || undefined,
          method,
          path: search ? `${path}?${search}` : path,
          headers: signed.headers,
        },
        resolve,
      );
      req.once('error', (error) => reject(asS3Error(error, attempts)));
      for (const piece of body ?? []) req.write(piece);
      req.end();
    });
  }

  /** The bucket's URL and signer from the client's own endpoint rules and region. */
  private resolve(): Promise<Target> {
    if (this.target) return this.target;
    this.target = (async () => {
      const region = await this.s3.config.region();
      const endpoint = this.s3.config.endpointProvider({
        Bucket: this.bucket,
        Region: region,
        ForcePathStyle: this.options.forcePathStyle,
        Endpoint: this.options.endpoint,
        UseFIPS: false,
        UseDualStack: false,
        Accelerate: false,
      });
      const scheme = endpoint.properties?.authSchemes as { signingRegion?: string }[] | undefined;
      const signer = new SignatureV4({
        service: 's3',
        region: scheme?.[0]?.signingRegion ?? region,
        credentials: this.s3.config.credentials,
        sha256: NodeSha256,
        uriEscapePath: false, // S3 signs the path encoded once, as sent
        applyChecksum: false,
      });
      return { base: endpoint.url, signer };
    })();
    this.target.catch(() => {
      this.target = undefined; // a failed resolution (credentials, say) is tried again
    });
    return this.target;
  }
}
