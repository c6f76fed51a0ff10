/**
 * The SQL port every repository is written against. One dialect (PostgreSQL) serves the embedded PGlite
 * database (standalone) and a PostgreSQL server (cluster), so repositories hold plain SQL with `$n`
 * placeholders and never see a driver.
 */
export interface SqlDatabase {
  /** Runs one parameterized statement and returns its rows. */
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs one or more statements without parameters (DDL in migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Runs `fn` in a transaction: committed when `fn` resolves, rolled back when it throws (the error is
   * rethrown). Inside `fn`, use only `tx`: on PGlite the outer handle waits for the transaction to end, so
   * using it from inside the callback deadlocks. `tx.transaction` nests with a savepoint.
   */
  transaction<T>(fn: (tx: SqlDatabase) => Promise<T>): Promise<T>;
  /** Releases the connection(s). Idempotent. */
  close(): Promise<void>;
  /**
   * What an embedded database holds in this process (PGlite's thread), for `/metrics`; absent for a
   * PostgreSQL server (its memory is another process's).
   */
  memory?(): MetastoreMemory | null;
}

/** Bytes held by an embedded database's thread. */
export interface MetastoreMemory {
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** PGlite's WebAssembly memory: grows with the data and never shrinks. */
  wasmMemory: number;
}
