/**
 * The infrastructure a Verity process talks to, as metrics and logs name it. `network` is a
 * socket error that no adapter claimed (a raw ECONNREFUSED from a client that adds nothing).
 */
export type InfraDependency = 'postgres' | 's3' | 'redis' | 'kafka' | 'network';

/** A dependency an adapter answers for: every one but the anonymous `network`. */
export type AdapterDependency = Exclude<InfraDependency, 'network'>;

/**
 * Thrown by an adapter at its boundary when its dependency is unreachable and the error it
 * got names nothing of it (a bare socket error): the outage then carries the dependency's
 * name, and `cause` the original error.
 */
export class InfraOutage extends Error {
  constructor(
    readonly dependency: AdapterDependency,
    cause: unknown,
  ) {
    super(`${dependency} unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'InfraOutage';
  }
}

/**
 * An adapter's test of one error object (not its causes) for "my backend is unreachable,
 * overloaded or timing out": by the client library's error types and codes, never a message.
 */
export type OutageRecogniser = (error: object) => boolean;

const recognisers = new Map<OutageRecogniser, AdapterDependency>();

/**
 * Registers an adapter's {@link OutageRecogniser}: from then on {@link infraOutageOf} names
 * `dependency` for the errors it recognises. Each adapter calls it where it creates its
 * client; registering the same function again changes nothing.
 */
export function recogniseOutages(dependency: AdapterDependency, recognise: OutageRecogniser): void {
  recognisers.set(recognise, dependency);
}

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

/** Whether `value` carries the code of a Node socket error (refused, reset, unreachable…). */
export function isSocketError(value: unknown): boolean {
  const code = (value as { code?: unknown } | null)?.code;
  return typeof code === 'string' && SOCKET_ERRNOS.has(code);
}

/** What a single error object (not its causes) says of itself. */
function classifyOwn(error: object): InfraDependency | null {
  if (error instanceof InfraOutage) return error.dependency;
  for (const [recognise, dependency] of recognisers) if (recognise(error)) return dependency;
  return isSocketError(error) ? 'network' : null;
}

/**
 * Whether `error` means an infrastructure dependency is unreachable, overloaded or timing out
 * (retrying later will work) and which one; null for a permanent failure (a bad statement, a
 * missing object, a bug). Decided by an {@link InfraOutage} an adapter threw, by the
 * recognisers adapters registered, or by a Node socket error (`network`), never by a message;
 * through the error's causes (`cause`, an AggregateError's `errors`), where the most specific
 * dependency found wins over `network`.
 */
export function infraOutageOf(error: unknown): InfraDependency | null {
  const seen = new Set<unknown>();
  let found: InfraDependency | null = null;
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null || seen.has(value) || depth > 6) return;
    seen.add(value);
    const own = classifyOwn(value);
    if (own !== null && (found === null || found === 'network')) found = own;
    const { cause, errors } = value as { cause?: unknown; errors?: unknown };
    visit(cause, depth + 1);
    if (Array.isArray(errors)) for (const inner of errors) visit(inner, depth + 1);
  };
  visit(error, 0);
  return found;
}
