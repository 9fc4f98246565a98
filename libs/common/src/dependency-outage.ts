/**
 * The infrastructure a Verity process talks to. `network` is a socket error that names no
 * client library (a raw ECONNREFUSED from a driver that adds nothing of its own).
 */
export type InfraDependency = 'postgres' | 's3' | 'redis' | 'kafka' | 'network';

/**
 * SQLSTATEs that mean "the server is not there right now", not "this statement is wrong":
 * class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, shutting down, recovering), 53300 too_many_connections.
 * https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const PG_OUTAGE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const PG_CONNECTION_CLASS = '08';

/** Node system errors of a connection that could not be made or was lost. */
const SOCKET_ERRNOS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/** AWS SDK (smithy) error names of a service that is overloaded or timing out. */
const AWS_OUTAGE_NAMES = new Set([
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

/** ioredis: a command gave up waiting while the client could not reconnect. */
const REDIS_OUTAGE_NAMES = new Set(['MaxRetriesPerRequestError']);

/** The fields the classifier reads; every one optional, since any value can be thrown. */
interface ErrorFields {
  name?: unknown;
  code?: unknown;
  errno?: unknown;
  retriable?: unknown;
  $retryable?: unknown;
  $metadata?: { httpStatusCode?: unknown };
  cause?: unknown;
  driverError?: unknown;
  originalError?: unknown;
  errors?: unknown;
}

function fields(value: unknown): ErrorFields | null {
  return typeof value === 'object' && value !== null ? value : null;
}

/** What a single error object (not its causes) says by its own type and codes. */
function classifyOwn(e: ErrorFields): InfraDependency | null {
  const code = typeof e.code === 'string' ? e.code : undefined;
  const name = typeof e.name === 'string' ? e.name : '';
  if (e.$metadata !== undefined) {
    // An AWS SDK error: a 5xx or 429 answer, a throttle, a timeout, or the socket underneath.
    const status = e.$metadata.httpStatusCode;
    const serverSide = typeof status === 'number' && (status >= 500 || status === 429);
    if (e.$retryable !== undefined || serverSide || AWS_OUTAGE_NAMES.has(name)) return 's3';
    if (code !== undefined && SOCKET_ERRNOS.has(code)) return 's3';
    return null;
  }
  if (typeof e.retriable === 'boolean') {
    // kafkajs errors carry `retriable`; KafkaJSNumberOfRetriesExceeded is false but wraps one.
    return e.retriable ? 'kafka' : null;
  }
  if (REDIS_OUTAGE_NAMES.has(name)) return 'redis';
  if (code !== undefined && /^[0-9A-Z]{5}$/.test(code) && typeof e.errno !== 'number') {
    // A PostgreSQL error: SQLSTATE is five digits or upper-case letters (errno errors have errno).
    return PG_OUTAGE_STATES.has(code) || code.startsWith(PG_CONNECTION_CLASS) ? 'postgres' : null;
  }
  if (code !== undefined && SOCKET_ERRNOS.has(code)) return 'network';
  return null;
}

/**
 * Whether `error` means an infrastructure dependency is unreachable, overloaded or timing out
 * (retrying later will work) and which one; null for a permanent failure (a bad statement, a
 * missing object, a bug). Decided by the error's type and codes, never by its message, and
 * through its causes (TypeORM's `driverError`, kafkajs's `originalError`, `cause`, an
 * AggregateError's `errors`); the most specific dependency found wins over `network`.
 */
export function infraOutageOf(error: unknown): InfraDependency | null {
  const seen = new Set<unknown>();
  let found: InfraDependency | null = null;
  const visit = (value: unknown, depth: number): void => {
    const e = fields(value);
    if (!e || seen.has(value) || depth > 6) return;
    seen.add(value);
    const own = classifyOwn(e);
    if (own !== null && (found === null || found === 'network')) found = own;
    for (const next of [e.cause, e.driverError, e.originalError]) visit(next, depth + 1);
    if (Array.isArray(e.errors)) for (const inner of e.errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return found;
}
