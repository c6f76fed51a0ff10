import type { SqlDatabase } from './sql-database.port';

/** The minimal handle of a driver's open transaction. */
export interface TransactionHandle {
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
  exec(sql: string): Promise<void>;
}

/**
 * A `SqlDatabase` view of an open transaction. Nested `transaction` calls become savepoints, so a
 * repository method that opens its own transaction also composes inside a caller's transaction.
 * `close` is a no-op: the owner of the transaction ends it.
 */
export class SavepointTransaction implements SqlDatabase {
  private savepoints = 0;

  constructor(private readonly handle: TransactionHandle) {}

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.handle.query<T>(sql, params);
  }

  exec(sql: string): Promise<void> {
    return this.handle.exec(sql);
  }

  async transaction<T>(fn: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    const name = `sp_${++this.savepoints}`;
    await this.handle.exec(`SAVEPOINT ${name}`);
    try {
      const result = await fn(this);
      await this.handle.exec(`RELEASE SAVEPOINT ${name}`);
      return result;
    } catch (err) {
      await this.handle.exec(`ROLLBACK TO SAVEPOINT ${name}`);
      throw err;
    }
  }

  async close(): Promise<void> {}
}
