import { systemClock, type Clock } from '@quarry/common';
import { AdmissionCounterRepository } from './admission-counter.repository';
import { AlertRepository } from './alert.repository';
import { BlockRepository } from './block.repository';
import { ClusterRepository } from './cluster.repository';
import { DatasetRepository } from './dataset.repository';
import { GroupRepository } from './group.repository';
import { migrate } from './migrate';
import { MetricSeriesRepository } from './metric-series.repository';
import { OrgRepository } from './org.repository';
import { PgDatabase } from './pg-database.adapter';
import { PgliteDatabase } from './pglite-database.adapter';
import { ensureRegionSchema } from './region-schema';
import { ResourceRepository } from './resource.repository';
import { RoleRepository } from './role.repository';
import type { SqlDatabase } from './sql-database.port';
import { TokenRepository } from './token.repository';
import { UserRepository } from './user.repository';

export interface MetastoreOptions {
  /** Source of `createdAt` / `updatedAt` (tests pin it). */
  clock?: Clock;
  /**
   * A connection whose search_path puts a region's schema first (`openRegional`) must not migrate: the
   * migrator's unqualified tables would be created in that schema. Default true.
   */
  migrate?: boolean;
}

/** The repositories over one migrated database. */
export class Metastore {
  readonly orgs: OrgRepository;
  readonly users: UserRepository;
  readonly tokens: TokenRepository;
  /** RBAC roles and groups (`/v2/rbac`). */
  readonly roles: RoleRepository;
  readonly groups: GroupRepository;
  readonly datasets: DatasetRepository;
  readonly blocks: BlockRepository;
  readonly metricSeries: MetricSeriesRepository;
  /** Dashboards, views, virtual fields, starred queries, annotations, monitors, notifiers. */
  readonly resources: ResourceRepository;
  /** Version counters and leases shared by the processes of a cluster. */
  readonly cluster: ClusterRepository;
  /** Monitor runs, their evaluation state and alert history. */
  readonly alerts: AlertRepository;
  /** The region's shared rate-limit, quota and query-cost counters (cluster shape). */
  readonly admissionCounters: AdmissionCounterRepository;

  private constructor(
    readonly db: SqlDatabase,
    private readonly clock: Clock,
  ) {
    this.orgs = new OrgRepository(db, clock);
    this.users = new UserRepository(db, clock);
    this.tokens = new TokenRepository(db, clock);
    this.roles = new RoleRepository(db, clock);
    this.groups = new GroupRepository(db, clock);
    this.datasets = new DatasetRepository(db, clock);
    this.blocks = new BlockRepository(db);
    this.metricSeries = new MetricSeriesRepository(db);
    this.resources = new ResourceRepository(db, clock);
    this.cluster = new ClusterRepository(db);
    this.alerts = new AlertRepository(db, clock);
    this.admissionCounters = new AdmissionCounterRepository(db);
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
      if (options.migrate !== false) await migrate(db);
    } catch (err) {
      await db.close().catch(() => undefined);
      throw err;
    }
    return new Metastore(db, options.clock ?? systemClock);
  }

  /**
   * A PostgreSQL metastore for one region's cluster: migrated (over a plain connection), then — for a
   * region with a schema of its own (`regionSchema`, null for the home region) — that schema ensured and
   * first on every connection's search_path, so its coordination tables (offsets, leases, members) are
   * the region's while everything else is the installation's (region-schema.ts).
   */
  static async openRegional(
    url: string,
    regionSchema: string | null,
    options: MetastoreOptions = {},
  ): Promise<Metastore> {
    const shared = await Metastore.over(await PgDatabase.connect(url), options);
    if (regionSchema === null) return shared;
    try {
      await ensureRegionSchema(shared.db, regionSchema);
    } finally {
      await shared.close();
    }
    const regional = await PgDatabase.connect(url, { options: `-c search_path=${regionSchema},public` });
    return Metastore.over(regional, { ...options, migrate: false });
  }

  /**
   * Runs `fn` with repositories bound to one transaction: committed when `fn` resolves, rolled back when
   * it throws. For changes that span repositories (a dataset and everything that goes with it). Inside
   * `fn`, use only the given Metastore (see `SqlDatabase.transaction`).
   */
  transaction<T>(fn: (tx: Metastore) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(new Metastore(tx, this.clock)));
  }

  /**
   * Runs `fn` in one read-only REPEATABLE READ transaction: every read inside sees the same committed
   * state, so version counters, offsets and the rows they describe agree (the catalog refresh of a
   * cluster node depends on that).
   */
  snapshot<T>(fn: (tx: Metastore) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.exec('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      return fn(new Metastore(tx, this.clock));
    });
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
