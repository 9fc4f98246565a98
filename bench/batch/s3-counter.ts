// A counting HTTP proxy in front of the S3 endpoint: the benchmark's processes use it as their
// S3_ENDPOINT, so every S3 request they make, and its body bytes both ways, is counted here
// without any hook in production code (test/support/http-proxy.ts forwards it unchanged).
import { startHttpProxy } from '../../test/support/http-proxy';

/** What went through the proxy so far. */
export interface S3Counts {
  requests: number;
  /** Request body bytes (uploads). */
  bytesIn: number;
  /** Response body bytes (downloads). */
  bytesOut: number;
}

export interface S3Counter {
  /** The endpoint to give the processes (http://127.0.0.1:<port>). */
  endpoint: string;
  counts(): S3Counts;
  close(): Promise<void>;
}

/** Starts the proxy to `upstream` (an http:// S3 endpoint) on a free loopback port. */
export async function startS3Counter(upstream: string): Promise<S3Counter> {
  const counts: S3Counts = { requests: 0, bytesIn: 0, bytesOut: 0 };
  const proxy = await startHttpProxy(upstream, {
    onRequest: () => counts.requests++,
    onRequestData: (bytes) => (counts.bytesIn += bytes),
    onResponseData: (bytes) => (counts.bytesOut += bytes),
  });
  return { endpoint: proxy.endpoint, counts: () => ({ ...counts }), close: () => proxy.close() };
}
