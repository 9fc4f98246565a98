import pino from 'pino';

/** What a database driver's error carries besides its message (pg's DatabaseError, TypeORM's QueryFailedError). */
interface DatabaseErrorLike extends Error {
  code?: string;
  query?: string;
  parameters?: unknown[];
  driverError?: unknown;
  severity?: string;
}

const STATEMENT =
  /^\s*(select|insert\s+into|update|delete\s+from|with|create|alter|drop)\s+("?[\w.$]+"?)?/i;

function isDatabaseError(err: DatabaseErrorLike): boolean {
  return 'query' in err || 'parameters' in err || 'driverError' in err || 'severity' in err;
}

/** `INSERT INTO "accounts"`: enough to find the statement, never its values. */
export function statementName(query: unknown): string | undefined {
  if (typeof query !== 'string') return undefined;
  const match = STATEMENT.exec(query);
  return match ? match[0].replace(/\s+/g, ' ').trim() : 'statement';
}

/**
 * pino's `err` serializer. Database errors carry the statement's parameters (a new account's
 * webhook secret, a key's hash) and a message or detail that can quote a value, so for them
 * only the error's type, its SQLSTATE code, the statement's name and the stack frames are
 * logged. Other errors keep pino's standard form.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof Error)) return pino.stdSerializers.err(err as Error);
  const db = err as DatabaseErrorLike;
  if (!isDatabaseError(db)) return pino.stdSerializers.err(err);
  const driver = db.driverError as { code?: string } | undefined;
  return {
    type: err.name,
    code: db.code ?? driver?.code,
    statement: statementName(db.query),
    stack: err.stack?.split('\n').slice(1).join('\n'),
  };
}
