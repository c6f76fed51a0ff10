import { systemClock, type Clock } from '@quarry/common';
import { BlockRepository } from './block.repository';
import { DatasetRepository } from './dataset.repository';
import { migrate } from './migrate';
import { OrgRepository } from './org.repository';
import { PgliteDatabase } from './pglite-database.adapter';
import type { SqlDatabase } from './sql-database.port';
import { TokenRepository } from './token.repository';
import { UserRepository } from './user.repository';

export interface MetastoreOptions {
  /** Source of `createdAt` / `updatedAt` (tests pin it). */
  clock?: Clock;
}

/** The repositories over one migrated database. */
export class Metastore {
  readonly orgs: OrgRepository;
  readonly users: UserRepository;
  readonly tokens: TokenRepository;
  readonly datasets: DatasetRepository;
  readonly blocks: BlockRepository;

  private constructor(
    readonly db: SqlDatabase,
    clock: Clock,
  ) {
    this.orgs = new OrgRepository(db, clock);
    this.users = new UserRepository(db, clock);
    this.tokens = new TokenRepository(db, clock);
    this.datasets = new DatasetRepository(db, clock);
    this.blocks = new BlockRepository(db);
  }

  /** Opens the embedded PGlite database (`null` = in memory, else a data directory) and migrates it. */
  static async open(dataDir: string | null, options: MetastoreOptions = {}): Promise<Metastore> {
    return Metastore.over(await PgliteDatabase.open(dataDir), options);
  }

  /**
   * Migrates `db` and wraps it; the Metastore owns `db` from now on (`close` closes it). This is the entry
   * for a PostgreSQL server adapter. When migration fails the database is closed.
   */
  static async over(db: SqlDatabase, options: MetastoreOptions = {}): Promise<Metastore> {
    try {
      await migrate(db);
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
    return new Metastore(db, options.clock ?? systemClock);
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
