import pg, { DatabaseError } from 'pg';
import { QueryFailedError } from 'typeorm';
import { InfraOutage, isSocketError, recogniseOutages } from '@verity/common';

/**
 * SQLSTATEs that mean "the server is not there right now", not "this statement is wrong":
 * class 08 (connection exception), 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03
 * cannot_connect_now (starting up, shutting down, recovering), 53300 too_many_connections.
 * https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const OUTAGE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);
const CONNECTION_CLASS = '08';

function isOutageState(error: unknown): boolean {
  if (!(error instanceof DatabaseError) || error.code === undefined) return false;
  return OUTAGE_STATES.has(error.code) || error.code.startsWith(CONNECTION_CLASS);
}

/**
 * PostgreSQL's outage errors: the server's own (an outage SQLSTATE), and a statement whose
 * connection failed under it (TypeORM's QueryFailedError around a socket error). A connection
 * that could not be made at all is an {@link InfraOutage} already ({@link PostgresClient}).
 */
export function isPostgresOutage(error: object): boolean {
  if (error instanceof QueryFailedError) {
    const driverError: unknown = error.driverError;
    return isOutageState(driverError) || isSocketError(driverError);
  }
  return isOutageState(error);
}

/** What pg's Client.connect calls back with. */
type ConnectCallback = ((err: Error) => void) | ((err: null, client: pg.Client) => void);

/**
 * pg's Client, whose failure to connect (refused, reset, unreachable) is an InfraOutage of
 * `postgres`: the socket error itself names no server, and a pool hands it on as it is. So is
 * a statement on a connection the server ended without our asking (pg's "Connection
 * terminated unexpectedly" carries no code): a pool may hand such a connection out before pg
 * has seen it close. The data source's pool makes its connections with it (`extra.Client`).
 */
export class PostgresClient extends pg.Client {
  /** We asked for the end (end()); an end otherwise is the server's or the network's. */
  private closing = false;
  private lost = false;

  constructor(config?: string | pg.ClientConfig) {
    super(config);
    // Registered before pg's own listener (added at connect), so it is known before pg
    // fails the statements in flight.
    this.connection.once('end', () => {
      if (!this.closing) this.lost = true;
    });
  }

  override end(): Promise<void>;
  override end(callback: (err: Error) => void): void;
  override end(callback?: (err: Error) => void): Promise<void> | void {
    this.closing = true;
    return callback === undefined ? super.end() : super.end(callback);
  }

  /** `error`, as an InfraOutage when the connection was lost under it. */
  lostFailure(error: unknown): unknown {
    // The server's own errors name their state (57P01…); only pg's codeless ones are wrapped.
    if (!this.lost || !(error instanceof Error)) return error;
    if (error instanceof DatabaseError || error instanceof InfraOutage) return error;
    return new InfraOutage('postgres', error);
  }

  override connect(): Promise<pg.Client>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.Client> | void {
    if (callback === undefined)
      return super.connect().catch((error: unknown) => {
        throw connectionFailure(error);
      });
    const done = callback as (error: unknown, client?: pg.Client) => void;
    super.connect(((error: Error | null, client?: pg.Client) =>
      done(error === null ? null : connectionFailure(error), client)) as ConnectCallback);
  }
}

// pg's query, its errors passed through lostFailure: set on the prototype rather than declared
// in the class, so callers keep pg's typed overloads (callback, promise or submittable). pg's
// own query is looked up at each call, as a subclass method would reach it through super.
type PgQuery = (this: pg.Client, ...args: unknown[]) => unknown;
Object.defineProperty(PostgresClient.prototype, 'query', {
  value: function query(this: PostgresClient, ...args: unknown[]): unknown {
    const last = args.at(-1);
    if (typeof last === 'function') {
      args[args.length - 1] = (error: unknown, result: unknown) =>
        (last as (error: unknown, result: unknown) => void)(this.lostFailure(error), result);
    }
    const pgQuery = Reflect.get(pg.Client.prototype, 'query') as PgQuery;
    const answer = pgQuery.apply(this, args);
    return answer instanceof Promise
      ? answer.catch((error: unknown) => {
          throw this.lostFailure(error);
        })
      : answer;
  },
});

function connectionFailure(error: unknown): unknown {
  return isSocketError(error) ? new InfraOutage('postgres', error) : error;
}

/** Makes PostgreSQL's outage errors known to `infraOutageOf` (@verity/common). */
export function recognisePostgresOutages(): void {
  recogniseOutages('postgres', isPostgresOutage);
}
