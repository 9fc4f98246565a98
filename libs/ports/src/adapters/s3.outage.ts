import { isSocketError, recogniseOutages } from '@verity/common';

/** AWS SDK (smithy) error names of a service that is overloaded or timing out. */
const OUTAGE_NAMES = new Set([
  'TimeoutError',
  'RequestTimeout',
  'RequestTimeoutException',
  'ServiceUnavailable',
  'InternalError',
  'SlowDown',
  'Throttling',
  'ThrottlingException',
  'TooManyRequestsException',
]);

/** The fields of an AWS SDK error the test reads; any of them may be missing. */
interface AwsErrorFields {
  name?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
}

/**
 * S3's outage errors: an AWS SDK error (it carries `$metadata`, as do the transport errors of
 * S3ObjectHttp) for a 5xx or 429 answer, a throttle, a timeout, or the socket underneath. A
 * 4xx answer (a missing object, a refused signature) is no outage.
 */
function isS3Outage(error: object): boolean {
  const e = error as AwsErrorFields;
  if (e.$metadata === undefined) return false;
  const status = e.$metadata.httpStatusCode;
  const serverSide = typeof status === 'number' && (status >= 500 || status === 429);
  const named = typeof e.name === 'string' && OUTAGE_NAMES.has(e.name);
  return e.$retryable !== undefined || serverSide || named || isSocketError(error);
}

/** Makes S3's outage errors known to `infraOutageOf` (@verity/common). */
export function recogniseS3Outages(): void {
  recogniseOutages('s3', isS3Outage);
}
