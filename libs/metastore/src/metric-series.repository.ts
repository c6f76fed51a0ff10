import { conflict, invalid } from '@quarry/common';
import type { SqlDatabase } from './sql-database.port';
import { isoOf, isoParam, jsonOf, numberOf } from './sql-values';

/** One series of a metrics dataset. `tags` is the typed tag map as JSON (`{key: {type, value}}`). */
export interface MetricSeriesRecord {
  datasetId: string;
  seriesId: string;
  metric: string;
  tags: Record<string, unknown>;
  /** Unix seconds of the first and last compacted point. */
  minTime: number;
  maxTime: number;
}

export interface MetricMetadataRecord {
  datasetId: string;
  metric: string;
  type: string;
  temporality: string | null;
  unit: string | null;
}

/** A registered point block (object store key + what it covers). */
export interface MetricBlockRecord {
  id: string;
  datasetId: string;
  metric: string;
  objectKey: string;
  /** Unix seconds, inclusive on both ends. */
  minTime: number;
  maxTime: number;
  seriesCount: number;
  pointCount: number;
  sizeBytes: number;
  /** First metrics-log offset the block was built from (orders blocks by ingestion). */
  firstOffset: number;
  createdAt: string;
}

/** Everything one compaction step makes durable, in one transaction. */
export interface MetricsCommit {
  series: readonly MetricSeriesRecord[];
  metadata: readonly MetricMetadataRecord[];
  blocks: readonly MetricBlockRecord[];
  /** The next metrics-log offset to compact (never moves backwards). */
  nextOffset: number;
  /**
   * Compare-and-set, as `OffsetCommit.expectedOffset` for events: the committed offset the step started
   * from. Another value in the table rolls the whole step back with QuarryError `conflict`
   * (`log_offset_moved`). Absent: the offset only moves forward.
   */
  expectedOffset?: number;
}

export interface MetricsCatalogSnapshot {
  series: MetricSeriesRecord[];
  metadata: MetricMetadataRecord[];
  blocks: MetricBlockRecord[];
}

const PARTITION = 0;

const SERIES_SQL = `INSERT INTO metric_series (dataset_id, series_id, metric, tags, min_time, max_time)
  SELECT d, s, m, t::jsonb, lo, hi FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[]) AS u(d, s, m, t, lo, hi)
  ON CONFLICT (dataset_id, series_id) DO UPDATE SET
    min_time = LEAST(metric_series.min_time, EXCLUDED.min_time),
    max_time = GREATEST(metric_series.max_time, EXCLUDED.max_time)`;

const METADATA_SQL = `INSERT INTO metric_metadata (dataset_id, metric, type, temporality, unit)
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])
  ON CONFLICT (dataset_id, metric) DO UPDATE SET
    type = EXCLUDED.type, temporality = EXCLUDED.temporality, unit = EXCLUDED.unit`;

const BLOCK_COLUMNS: ReadonlyArray<[string, string, (b: MetricBlockRecord) => unknown]> = [
  ['id', 'text', (b) => b.id],
  ['dataset_id', 'text', (b) => b.datasetId],
  ['metric', 'text', (b) => b.metric],
  ['object_key', 'text', (b) => b.objectKey],
  ['min_time', 'bigint', (b) => b.minTime],
  ['max_time', 'bigint', (b) => b.maxTime],
  ['series_count', 'integer', (b) => b.seriesCount],
  ['point_count', 'integer', (b) => b.pointCount],
  ['size_bytes', 'integer', (b) => b.sizeBytes],
  ['first_offset', 'bigint', (b) => b.firstOffset],
  ['created_at', 'timestamptz', (b) => isoParam(b.createdAt, 'metric block createdAt')],
];
const BLOCK_SELECT = BLOCK_COLUMNS.map(([c]) => c).join(', ');
const BLOCKS_SQL = `INSERT INTO metric_blocks (${BLOCK_SELECT})
  SELECT * FROM unnest(${BLOCK_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')})
  ON CONFLICT (id) DO NOTHING`;

/**
 * The metrics series catalog, metric metadata, point blocks and the metrics-log offset. A compaction
 * step registers all four in one transaction, so a crash leaves either the whole step or none of it;
 * block ids derive from the log range, so replaying a step registers nothing twice.
 */
export class MetricSeriesRepository {
  constructor(private readonly db: SqlDatabase) {}

  async commit(commit: MetricsCommit): Promise<void> {
    if (!Number.isSafeInteger(commit.nextOffset) || commit.nextOffset < 0) {
      throw invalid(`invalid metrics log offset ${commit.nextOffset}`, { code: 'offset_commit_invalid' });
    }
    await this.db.transaction(async (tx) => {
      const { series, metadata, blocks } = commit;
      if (series.length > 0) {
        await tx.query(SERIES_SQL, [
          series.map((s) => s.datasetId),
          series.map((s) => s.seriesId),
          series.map((s) => s.metric),
          series.map((s) => JSON.stringify(s.tags)),
          series.map((s) => s.minTime),
          series.map((s) => s.maxTime),
        ]);
      }
      if (metadata.length > 0) {
        await tx.query(METADATA_SQL, [
          metadata.map((m) => m.datasetId),
          metadata.map((m) => m.metric),
          metadata.map((m) => m.type),
          metadata.map((m) => m.temporality),
          metadata.map((m) => m.unit),
        ]);
      }
      if (blocks.length > 0)
        await tx.query(
          BLOCKS_SQL,
          BLOCK_COLUMNS.map(([, , get]) => blocks.map(get)),
        );
      if (commit.expectedOffset === undefined) {
        await tx.query(
          `INSERT INTO metric_log_offsets (partition, committed_offset) VALUES ($1, $2)
           ON CONFLICT (partition) DO UPDATE SET committed_offset = GREATEST(metric_log_offsets.committed_offset, EXCLUDED.committed_offset)`,
          [PARTITION, commit.nextOffset],
        );
        return;
      }
      await tx.query(
        'INSERT INTO metric_log_offsets (partition, committed_offset) VALUES ($1, 0) ON CONFLICT (partition) DO NOTHING',
        [PARTITION],
      );
      const moved = await tx.query(
        `UPDATE metric_log_offsets SET committed_offset = $2 WHERE partition = $1 AND committed_offset = $3
         RETURNING committed_offset`,
        [PARTITION, commit.nextOffset, commit.expectedOffset],
      );
      if (moved.length === 0) {
        throw conflict(
          `the metrics log is no longer committed through ${commit.expectedOffset}: another compactor took it over`,
          { code: 'log_offset_moved' },
        );
      }
    });
  }

  /** The next metrics-log offset to compact: 0 for a fresh store. */
  async committedOffset(): Promise<number> {
    const rows = await this.db.query<{ committed_offset: unknown }>(
      'SELECT committed_offset FROM metric_log_offsets WHERE partition = $1',
      [PARTITION],
    );
    return rows.length > 0 ? numberOf(rows[0].committed_offset) : 0;
  }

  /** The whole catalog (series, metadata, blocks), loaded once at start. */
  async load(): Promise<MetricsCatalogSnapshot> {
    const series = await this.db.query<Record<string, unknown>>(
      'SELECT dataset_id, series_id, metric, tags, min_time, max_time FROM metric_series',
    );
    const metadata = await this.db.query<Record<string, unknown>>(
      'SELECT dataset_id, metric, type, temporality, unit FROM metric_metadata',
    );
    const blocks = await this.db.query<Record<string, unknown>>(
      `SELECT ${BLOCK_SELECT} FROM metric_blocks ORDER BY first_offset, id`,
    );
    return {
      series: series.map((r) => ({
        datasetId: String(r.dataset_id),
        seriesId: String(r.series_id),
        metric: String(r.metric),
        tags: jsonOf<Record<string, unknown>>(r.tags),
        minTime: numberOf(r.min_time),
        maxTime: numberOf(r.max_time),
      })),
      metadata: metadata.map((r) => ({
        datasetId: String(r.dataset_id),
        metric: String(r.metric),
        type: String(r.type),
        temporality: r.temporality === null ? null : String(r.temporality),
        unit: r.unit === null ? null : String(r.unit),
      })),
      blocks: blocks.map(toBlock),
    };
  }

  /**
   * Replaces blocks by one merged block in one transaction, so a reader of the catalog sees either the
   * inputs or the merged block. Returns how many of `removedIds` were still registered.
   */
  async replaceBlocks(
    removedIds: readonly string[],
    merged: MetricBlockRecord,
    options: { requireAll?: boolean } = {},
  ): Promise<number> {
    return this.db.transaction(async (tx) => {
      await tx.query(
        BLOCKS_SQL,
        BLOCK_COLUMNS.map(([, , get]) => [get(merged)]),
      );
      const rows = await tx.query<{ id: string }>(
        'DELETE FROM metric_blocks WHERE id = ANY($1::text[]) RETURNING id',
        [[...removedIds]],
      );
      // Several processes: an input merged or deleted meanwhile must cancel the merge (no double points).
      if (options.requireAll && rows.length !== new Set(removedIds).size) {
        throw conflict(`${removedIds.length - rows.length} of the metric blocks to replace are gone`, {
          code: 'blocks_changed',
        });
      }
      return rows.length;
    });
  }

  /** Per dataset: the version of its metric block list (moved by every insert or delete). */
  async blockVersions(): Promise<Map<string, number>> {
    const rows = await this.db.query<{ dataset_id: string; version: unknown }>(
      'SELECT dataset_id, version FROM metric_block_versions',
    );
    return new Map(rows.map((r) => [r.dataset_id, numberOf(r.version)]));
  }

  /** The point blocks of several datasets, in log order (for a catalog refresh). */
  async listBlocksOf(datasetIds: readonly string[]): Promise<Map<string, MetricBlockRecord[]>> {
    const out = new Map<string, MetricBlockRecord[]>(datasetIds.map((id) => [id, []]));
    if (datasetIds.length === 0) return out;
    const rows = await this.db.query<Record<string, unknown>>(
      `SELECT ${BLOCK_SELECT} FROM metric_blocks WHERE dataset_id = ANY($1::text[]) ORDER BY first_offset, id`,
      [[...datasetIds]],
    );
    for (const row of rows) out.get(String(row.dataset_id))?.push(toBlock(row));
    return out;
  }

  /** Every registered point-block object key (the orphan sweep's reference set). */
  async objectKeys(): Promise<Set<string>> {
    const rows = await this.db.query<{ object_key: string }>('SELECT object_key FROM metric_blocks');
    return new Set(rows.map((r) => r.object_key));
  }

  /** Deletes every catalog row of a dataset; returns its blocks so the caller deletes their objects. */
  async deleteDataset(datasetId: string): Promise<MetricBlockRecord[]> {
    return this.db.transaction(async (tx) => {
      await tx.query('DELETE FROM metric_series WHERE dataset_id = $1', [datasetId]);
      await tx.query('DELETE FROM metric_metadata WHERE dataset_id = $1', [datasetId]);
      const rows = await tx.query<Record<string, unknown>>(
        `DELETE FROM metric_blocks WHERE dataset_id = $1 RETURNING ${BLOCK_SELECT}`,
        [datasetId],
      );
      return rows.map(toBlock);
    });
  }
}

function toBlock(r: Record<string, unknown>): MetricBlockRecord {
  return {
    id: String(r.id),
    datasetId: String(r.dataset_id),
    metric: String(r.metric),
    objectKey: String(r.object_key),
    minTime: numberOf(r.min_time),
    maxTime: numberOf(r.max_time),
    seriesCount: numberOf(r.series_count),
    pointCount: numberOf(r.point_count),
    sizeBytes: numberOf(r.size_bytes),
    firstOffset: numberOf(r.first_offset),
    createdAt: isoOf(r.created_at),
  };
}
