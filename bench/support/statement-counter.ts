import { Client } from 'pg';

let statements = 0;

/**
 * Counts every statement any pg client of this process sends (TypeORM's pool, the notification
 * listener): a counting wrapper around `Client.prototype.query`, installed once before the app
 * connects. pg_stat_statements would need a server setting the shared PostgreSQL does not have.
 */
export function countStatements(): () => number {
  const query = Reflect.get(Client.prototype, 'query') as (...args: unknown[]) => unknown;
  Reflect.set(Client.prototype, 'query', function (this: Client, ...args: unknown[]) {
    statements++;
    return query.apply(this, args);
  });
  return () => statements;
}
