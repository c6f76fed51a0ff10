import { Pool, type PoolClient, type PoolConfig } from 'pg';
import { unavailable } from '@quarry/common';
import { SqlError } from './pglite-database.adapter';
import { SavepointTransaction } from './savepoint-transaction';
import type { SqlDatabase } from './sql-database.port';

const SQL_ERROR_FIELDS = [
  'code',
  'detail',
  'hint',
  'constraint',
  'table',
  'column',
  'schema',
  'severity',
  'position',
] as const;

/** SQLSTATE classes that mean "the server or the connection is gone", not "your statement is wrong". */
const CONNECTION_CLASSES = ['08', '57P'];

/**
 * `SqlDatabase` over a PostgreSQL server (the cluster's metastore) with the `pg` pool. Errors look exactly
 * like the PGlite adapter's: a `SqlError` carrying the SQLSTATE `code` (`23505`, ...), `detail` and
 * `constraint`, so repositories map them the same way on both backends. A server that cannot be reached
 * is `unavailable` (503), never a user error.
 */
export class PgDatabase implements SqlDatabase {
  private closed: Promise<void> | null = null;

  private constructor(private readonly pool: Pool) {}

  /** Connects (and checks the connection with one round trip) to `postgres://user:pass@host:port/db`. */
  static async connect(url: string, options: Omit<PoolConfig, 'connectionString'> = {}): Promise<PgDatabase> {
    const pool = new Pool({ connectionString: url, max: 10, ...options });
    // An idle client losing its connection emits on the pool; without a listener that kills the process.
    pool.on('error', () => undefined);
    const db = new PgDatabase(pool);
    try {
      await db.query('SELECT 1');
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw unavailable(`cannot connect to the metastore database at ${redact(url)}`, {
        code: 'metastore_open_failed',
        cause: err,
      });
    }
    return db;
  }

  async query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return runOn(this.pool, sql, params);
  }

  async exec(sql: string): Promise<void> {
    // Without parameters `pg` uses the simple protocol, which accepts several statements at once.
    await runOn(this.pool, sql, undefined);
  }

  async transaction<T>(fn: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw toSqlError(err);
    }
    let broken = false;
    try {
      await runOn(client, 'BEGIN', undefined);
      let open = true;
      const guard = () => {
        if (!open) throw new Error('the transaction has ended');
      };
      const tx = new SavepointTransaction({
        query: async <R>(sql: string, params?: unknown[]) => {
          guard();
          return runOn<R>(client, sql, params ?? []);
        },
        exec: async (sql: string) => {
          guard();
          await runOn(client, sql, undefined);
        },
      });
      let result: T;
      try {
        result = await fn(tx);
      } catch (err) {
        open = false;
        await runOn(client, 'ROLLBACK', undefined).catch(() => {
          broken = true;
        });
        throw err;
      }
      open = false;
      const commit = await client.query('COMMIT').catch((err: unknown) => {
        throw toSqlError(err);
      });
      // COMMIT of a transaction that saw an error rolls back without failing; surface it like PGlite does.
      if (commit.command === 'ROLLBACK') {
        const aborted = new SqlError(
          'the transaction was aborted by an earlier error and has been rolled back',
        );
        aborted.name = 'SqlError';
        aborted.code = '25P02';
        throw aborted;
      }
      return result;
    } catch (err) {
      if (isConnectionError(err)) broken = true;
      throw err;
    } finally {
      // A client whose connection failed must not go back to the pool.
      client.release(broken);
    }
  }

  close(): Promise<void> {
    this.closed ??= this.pool.end();
    return this.closed;
  }
}

async function runOn<T>(target: Pool | PoolClient, sql: string, params: unknown[] | undefined): Promise<T[]> {
  try {
    const result = params === undefined ? await target.query(sql) : await target.query(sql, params);
    // Several statements in one `exec` give an array of results; callers of exec ignore rows.
    return Array.isArray(result) ? [] : (result.rows as T[]);
  } catch (err) {
    throw toSqlError(err);
  }
}

/**
 * `pg`'s DatabaseError → `SqlError` with the same fields the PGlite adapter keeps. Connection failures
 * (refused, reset, admin shutdown) become `unavailable`, as a dead PGlite worker does.
 */
function toSqlError(err: unknown): Error {
  const source = err as { message?: string };
  if (isConnectionError(err)) {
    return unavailable('the metastore database is not available', {
      code: 'metastore_unavailable',
      cause: err,
    });
  }
  const sqlError = new SqlError(source.message ?? String(err));
  sqlError.name = 'SqlError';
  // The same fields the PGlite worker copies from its errors.
  for (const key of SQL_ERROR_FIELDS) {
    const value = (err as Record<string, unknown> | null)?.[key];
    if (typeof value === 'string') (sqlError as unknown as Record<string, string>)[key] = value;
  }
  return sqlError;
}

function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (CONNECTION_CLASSES.some((prefix) => code.startsWith(prefix))) return true;
  // Node socket errors (`ECONNREFUSED`, `ECONNRESET`, ...).
  return code.startsWith('E') && /^E[A-Z]+$/.test(code);
}

/** The URL without its password, for messages and logs. */
export function redact(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '<unparseable database URL>';
  }
}
