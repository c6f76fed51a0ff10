import type { SqlDatabase } from './sql-database.port';
import { isoOf, jsonOf, numberOf } from './sql-values';

/** A node of the cluster as it registered itself (`cluster_members`). */
export interface ClusterMember {
  nodeId: string;
  roles: string[];
  advertiseUrl: string;
  version: string;
  rpcVersion: number;
  startedAt: string;
  heartbeatAt: string;
  /** Whether its last heartbeat is within the timeout the caller asked about. */
  live: boolean;
}

/** Every version counter and committed offset a catalog copy depends on, read in one statement. */
export interface CatalogVersions {
  datasetsEpoch: number;
  blockVersions: Map<string, number>;
  metricBlockVersions: Map<string, number>;
  /** Events log: partition → committed offset. */
  committed: Map<number, number>;
  metricsCommitted: number;
}

/**
 * What the processes of a cluster share besides the catalog rows: version counters that tell a node
 * its in-memory copy is stale, and leases for work one node at a time may do.
 */
export class ClusterRepository {
  constructor(private readonly db: SqlDatabase) {}

  /** Moves with every insert, update or delete of a dataset row (trigger `datasets_epoch`). */
  async datasetsEpoch(): Promise<number> {
    const rows = await this.db.query<{ version: unknown }>(
      "SELECT version FROM catalog_epochs WHERE name = 'datasets'",
    );
    return rows.length > 0 ? numberOf(rows[0].version) : 0;
  }

  /**
   * The counters and offsets of `CatalogVersions` in ONE statement (one snapshot, one round trip): a
   * node whose copy is current learns so at the cost of this query alone.
   */
  async catalogVersions(): Promise<CatalogVersions> {
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT
         (SELECT version FROM catalog_epochs WHERE name = 'datasets') AS datasets_epoch,
         (SELECT coalesce(json_agg(json_build_array(dataset_id, version)), '[]') FROM block_versions) AS blocks,
         (SELECT coalesce(json_agg(json_build_array(dataset_id, version)), '[]') FROM metric_block_versions) AS metric_blocks,
         (SELECT coalesce(json_agg(json_build_array(partition, committed_offset)), '[]') FROM log_offsets) AS committed,
         (SELECT committed_offset FROM metric_log_offsets WHERE partition = 0) AS metrics_committed`,
    );
    const row = rows[0];
    const pairs = (value: unknown) => jsonOf<[string | number, number | string][]>(value);
    return {
      datasetsEpoch: row.datasets_epoch === null ? 0 : numberOf(row.datasets_epoch),
      blockVersions: new Map(pairs(row.blocks).map(([id, v]) => [String(id), Number(v)])),
      metricBlockVersions: new Map(pairs(row.metric_blocks).map(([id, v]) => [String(id), Number(v)])),
      committed: new Map(pairs(row.committed).map(([p, o]) => [Number(p), Number(o)])),
      metricsCommitted: row.metrics_committed === null ? 0 : numberOf(row.metrics_committed),
    };
  }

  /**
   * Takes or renews the lease `name` for `holder` for `ttlMs`: true when `holder` holds it afterwards.
   * A lease held by someone else is taken only once it expired, so two nodes never hold it at once as
   * long as each stops the leased work before its own lease runs out (renew well within the TTL).
   */
  async acquireLease(name: string, holder: string, ttlMs: number): Promise<boolean> {
    const rows = await this.db.query<{ holder: string }>(
      `INSERT INTO leases (name, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
         WHERE leases.holder = EXCLUDED.holder OR leases.expires_at < now()
       RETURNING holder`,
      [name, holder, ttlMs],
    );
    return rows.length === 1 && rows[0].holder === holder;
  }

  /** Gives the lease up early (a clean shutdown), if `holder` has it. */
  async releaseLease(name: string, holder: string): Promise<void> {
    await this.db.query('DELETE FROM leases WHERE name = $1 AND holder = $2', [name, holder]);
  }

  /** Live holders of the leases whose names start with `prefix`, sorted (membership rows). */
  async liveHolders(prefix: string): Promise<string[]> {
    const rows = await this.db.query<{ holder: string }>(
      `SELECT DISTINCT holder COLLATE "C" AS holder FROM leases WHERE starts_with(name, $1) AND expires_at >= now() ORDER BY 1`,
      [prefix],
    );
    return rows.map((r) => r.holder);
  }

  /** Registers this node or renews its heartbeat (the database's clock decides, not the node's). */
  async heartbeat(member: Omit<ClusterMember, 'heartbeatAt' | 'live'>): Promise<void> {
    await this.db.query(
      `INSERT INTO cluster_members (node_id, roles, advertise_url, version, rpc_version, started_at, heartbeat_at)
       VALUES ($1, $2::text[], $3, $4, $5, $6, now())
       ON CONFLICT (node_id) DO UPDATE SET roles = EXCLUDED.roles, advertise_url = EXCLUDED.advertise_url,
         version = EXCLUDED.version, rpc_version = EXCLUDED.rpc_version, started_at = EXCLUDED.started_at,
         heartbeat_at = now()`,
      [member.nodeId, member.roles, member.advertiseUrl, member.version, member.rpcVersion, member.startedAt],
    );
  }

  /**
   * Every registered node, live ones (a heartbeat within `timeoutMs`) first, then by node id; rows of
   * nodes silent for longer than `forgetMs` are deleted on the way.
   */
  async members(timeoutMs: number, forgetMs = 3_600_000): Promise<ClusterMember[]> {
    await this.db.query(
      `DELETE FROM cluster_members WHERE heartbeat_at < now() - $1 * interval '1 millisecond'`,
      [forgetMs],
    );
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT node_id, roles, advertise_url, version, rpc_version, started_at, heartbeat_at,
              heartbeat_at >= now() - $1 * interval '1 millisecond' AS live
       FROM cluster_members ORDER BY live DESC, node_id COLLATE "C"`,
      [timeoutMs],
    );
    return rows.map((r) => ({
      nodeId: String(r.node_id),
      roles: r.roles as string[],
      advertiseUrl: String(r.advertise_url),
      version: String(r.version),
      rpcVersion: numberOf(r.rpc_version),
      startedAt: isoOf(r.started_at),
      heartbeatAt: isoOf(r.heartbeat_at),
      live: r.live === true,
    }));
  }

  /** Leaves the cluster (a clean shutdown): others stop sending it work at once. */
  async leave(nodeId: string): Promise<void> {
    await this.db.query('DELETE FROM cluster_members WHERE node_id = $1', [nodeId]);
  }

  /** Who holds `name` now, if anyone (for /v1/cluster and tests). */
  async leaseHolder(name: string): Promise<string | null> {
    const rows = await this.db.query<{ holder: string }>(
      'SELECT holder FROM leases WHERE name = $1 AND expires_at >= now()',
      [name],
    );
    return rows.length > 0 ? rows[0].holder : null;
  }
}
