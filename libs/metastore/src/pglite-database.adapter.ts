import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { unavailable } from '@quarry/common';
import { PGLITE_WORKER_SCRIPT } from './pglite-worker-script';
import { SavepointTransaction } from './savepoint-transaction';
import type { MetastoreMemory, SqlDatabase } from './sql-database.port';

/**
 * A freshly initialized, empty data directory (tar). `initdb` dominates opening a new in-memory PGlite
 * (~2 s, ~700 MB RSS peak); loading this snapshot instead takes ~0.4 s. Taken once per process, on the
 * first in-memory open.
 */
let emptyDataDirTemplate: ArrayBuffer | null = null;

type Op = 'query' | 'exec' | 'commit' | 'dump' | 'close';

interface WorkerReply {
  id: number;
  result?: unknown;
  error?: { name?: string; message: string; code?: string; stack?: string; [key: string]: unknown };
}

/** An error raised by PostgreSQL, with its SQLSTATE `code` (e.g. `23505`) like `pg`'s DatabaseError. */
export class SqlError extends Error {
  code?: string;
  detail?: string;
  constraint?: string;
}

/** Serializes access: a transaction holds the lock from BEGIN to COMMIT, a plain statement for itself. */
class AsyncLock {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** Request/response over the worker's message port. */
class WorkerConnection {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; callsite: Error }
  >();
  private failure: Error | null = null;
  readonly ready: Promise<unknown>;

  constructor(private readonly worker: Worker) {
    this.ready = new Promise((resolve, reject) =>
      this.pending.set(0, { resolve, reject, callsite: new Error() }),
    );
    worker.on('message', (reply: WorkerReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      // An idle worker must not keep the process alive (a database left open would hang exit), but one
      // with requests in flight must, or the process could exit in the middle of a commit.
      if (this.pending.size === 0) this.worker.unref();
      if (reply.error) waiter.reject(toSqlError(reply.error, waiter.callsite));
      else waiter.resolve(reply.result);
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the PGlite worker exited with code ${code}`)));
  }

  call(op: Op, sql?: string, params?: unknown[]): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      // Captured here so a failed statement's stack points at the repository that issued it.
      this.pending.set(id, { resolve, reject, callsite: new Error() });
      this.worker.ref();
      this.worker.postMessage({ id, op, sql, params });
    });
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }

  private fail(cause: Error): void {
    this.failure ??= unavailable('the metastore database is not available', {
      code: 'metastore_unavailable',
      cause,
    });
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
  }
}

function toSqlError(data: NonNullable<WorkerReply['error']>, callsite: Error): SqlError {
  // The worker's name and stack are dropped: PGlite names its errors "error", and the stack that helps is
  // the caller's.
  const { message, ...fields } = data;
  delete fields.name;
  delete fields.stack;
  const err = Object.assign(new SqlError(message), fields);
  err.name = 'SqlError';
  err.stack = `${err.name}: ${message}\n${(callsite.stack ?? '').split('\n').slice(1).join('\n')}`;
  return err;
}

/**
 * `SqlDatabase` over PGlite (PostgreSQL compiled to WASM) running in a worker thread.
 *
 * Why a worker: PGlite's CommonJS build loads Node built-ins with dynamic `import()`, which fails inside
 * Jest's module sandbox (where the standalone server also runs in e2e tests); a worker loads it with Node's
 * own loader. It also keeps WASM query execution off the main event loop. PGlite is one connection, so
 * statements and transactions are serialized here.
 */
export class PgliteDatabase implements SqlDatabase {
  private readonly lock = new AsyncLock();
  private closed: Promise<void> | null = null;

  private constructor(
    private readonly conn: WorkerConnection,
    private readonly memorySlot: Float64Array,
  ) {}

  /**
   * What the PGlite thread holds, as it last reported it (every 2 s): its heap, external memory and
   * PGlite's WebAssembly memory (which grows with the data and never shrinks); null before the first
   * report.
   */
  memory(): MetastoreMemory | null {
    const m = this.memorySlot;
    if (m[5] === 0) return null;
    return { heapUsed: m[0], heapTotal: m[1], external: m[2], arrayBuffers: m[3], wasmMemory: m[4] };
  }

  /**
   * Opens a database. `null` gives a throw-away in-memory database (the fast fake used by tests); a
   * directory gives a persistent one (created and initialized when empty).
   */
  static async open(dataDir: string | null): Promise<PgliteDatabase> {
    const openFailed = (cause: unknown) =>
      unavailable(`cannot open the metastore database${dataDir === null ? '' : ` in ${dataDir}`}`, {
        code: 'metastore_open_failed',
        cause,
      });
    if (dataDir !== null) {
      dataDir = resolve(dataDir);
      try {
        mkdirSync(dataDir, { recursive: true });
      } catch (err) {
        throw openFailed(err);
      }
    }
    const useTemplate = dataDir === null && emptyDataDirTemplate !== null;
    const memory = new SharedArrayBuffer(6 * 8);
    const worker = new Worker(PGLITE_WORKER_SCRIPT, {
      eval: true,
      workerData: {
        pglitePath: require.resolve('@electric-sql/pglite'),
        dataDir,
        template: useTemplate ? emptyDataDirTemplate : null,
        memory,
      },
    });
    const conn = new WorkerConnection(worker);
    try {
      await conn.ready;
      if (dataDir === null && !useTemplate) {
        // Snapshot before anything is written, so every later in-memory open starts just as empty.
        emptyDataDirTemplate = (await conn.call('dump')) as ArrayBuffer;
      }
    } catch (err) {
      await conn.terminate();
      throw openFailed(err);
    }
    return new PgliteDatabase(conn, new Float64Array(memory));
  }

  query<T = Record<string, unknown>>(sql: string, params: unknown[] = []): Promise<T[]> {
    return this.lock.run(() => this.conn.call('query', sql, params) as Promise<T[]>);
  }

  exec(sql: string): Promise<void> {
    return this.lock.run(async () => {
      await this.conn.call('exec', sql);
    });
  }

  transaction<T>(fn: (tx: SqlDatabase) => Promise<T>): Promise<T> {
    return this.lock.run(async () => {
      let open = true;
      const guard = () => {
        if (!open) throw new Error('the transaction has ended');
      };
      await this.conn.call('exec', 'BEGIN');
      const tx = new SavepointTransaction({
        query: async <R>(sql: string, params?: unknown[]) => {
          guard();
          return (await this.conn.call('query', sql, params ?? [])) as R[];
        },
        exec: async (sql: string) => {
          guard();
          await this.conn.call('exec', sql);
        },
      });
      let result: T;
      try {
        result = await fn(tx);
      } catch (err) {
        open = false;
        await this.conn.call('exec', 'ROLLBACK').catch(() => undefined);
        throw err;
      }
      open = false;
      await this.conn.call('commit');
      return result;
    });
  }

  close(): Promise<void> {
    this.closed ??= this.lock.run(async () => {
      try {
        await this.conn.call('close');
      } catch (err) {
        // A worker that already died has nothing left to flush; closing it is not an error.
        if (!this.conn.failed) throw err;
      } finally {
        await this.conn.terminate();
      }
    });
    return this.closed;
  }
}
