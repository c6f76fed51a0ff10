import { conflict, invalid } from '@quarry/common';
import type { BlockRecord } from '@quarry/contracts';
import type { SqlDatabase } from './sql-database.port';
import { isoOf, isoParam, numberOf } from './sql-values';

/**
 * A log position to commit together with blocks. `offset` is the NEXT offset to consume (Kafka
 * semantics): after building blocks from offsets 0..41, commit 42.
 */
export interface OffsetCommit {
  partition: number;
  offset: number;
  /**
   * Compare-and-set: the committed offset this commit expects to find (where the caller started
   * reading). When the partition's committed offset is anything else — another compactor got there first
   * after a rebalance — the whole transaction is rolled back with QuarryError `conflict`
   * (`log_offset_moved`), so two compactors can never both register a range. Absent: the offset only
   * moves forward (GREATEST), for callers that own the partition alone.
   */
  expectedOffset?: number;
}

export interface RegisterBlocksResult {
  /** Blocks actually inserted; already registered ids (a replay) are skipped. */
  inserted: number;
  /** The committed offset of the partition after the call (never moves backwards). */
  committedOffset: number;
}

/** Inclusive lower / exclusive upper bounds on `_time` (epoch ms) for block pruning. */
export interface TimeRange {
  startMs: number;
  endMs: number;
}

interface BlockRow {
  id: string;
  dataset_id: string;
  object_key: string;
  row_count: unknown;
  size_bytes: unknown;
  min_time: unknown;
  max_time: unknown;
  partition: unknown;
  first_offset: unknown;
  last_offset: unknown;
  created_at: unknown;
}

const COLUMNS =
  'id, dataset_id, object_key, row_count, size_bytes, min_time, max_time, partition, first_offset, last_offset, created_at';

const toBlock = (row: BlockRow): BlockRecord => ({
  id: row.id,
  datasetId: row.dataset_id,
  objectKey: row.object_key,
  rowCount: numberOf(row.row_count),
  sizeBytes: numberOf(row.size_bytes),
  minTime: numberOf(row.min_time),
  maxTime: numberOf(row.max_time),
  partition: numberOf(row.partition),
  firstOffset: numberOf(row.first_offset),
  lastOffset: numberOf(row.last_offset),
  createdAt: isoOf(row.created_at),
});

/** Columns of `blocks` in insert order, with the SQL array type used to pass each as one parameter. */
const INSERT_COLUMNS: ReadonlyArray<[string, string, (b: BlockRecord) => unknown]> = [
  ['id', 'text', (b) => b.id],
  ['dataset_id', 'text', (b) => b.datasetId],
  ['object_key', 'text', (b) => b.objectKey],
  ['row_count', 'bigint', (b) => b.rowCount],
  ['size_bytes', 'bigint', (b) => b.sizeBytes],
  ['min_time', 'float8', (b) => b.minTime],
  ['max_time', 'float8', (b) => b.maxTime],
  ['partition', 'integer', (b) => b.partition],
  ['first_offset', 'bigint', (b) => b.firstOffset],
  ['last_offset', 'bigint', (b) => b.lastOffset],
  ['created_at', 'timestamptz', (b) => isoParam(b.createdAt, 'block createdAt')],
];

// One INSERT for any number of blocks: each column travels as an array parameter and unnest zips them.
const INSERT_BLOCKS_SQL = `INSERT INTO blocks (${INSERT_COLUMNS.map(([c]) => c).join(', ')})
  SELECT * FROM unnest(${INSERT_COLUMNS.map(([, t], i) => `$${i + 1}::${t}[]`).join(', ')})
  ON CONFLICT (id) DO NOTHING`;

/** Registered blocks and committed log offsets. */
export class BlockRepository {
  constructor(private readonly db: SqlDatabase) {}

  /**
   * Registers blocks and commits the log offset in ONE transaction (DESIGN §5b): either both are durable
   * or neither. Block ids are derived from the log range, so replaying a range after a crash is a no-op:
   * existing ids are skipped and the offset only moves forward.
   */
  async registerBlocks(blocks: readonly BlockRecord[], commit: OffsetCommit): Promise<RegisterBlocksResult> {
    checkCommit(commit);
    for (const b of blocks) {
      if (b.partition !== commit.partition) {
        throw invalid(
          `block ${b.id} is from partition ${b.partition}, the commit is for ${commit.partition}`,
          {
            code: 'block_partition_mismatch',
          },
        );
      }
    }
    return this.db.transaction(async (tx) => {
      let inserted = 0;
      if (blocks.length > 0) {
        const params = INSERT_COLUMNS.map(([, , get]) => blocks.map(get));
        const rows = await tx.query<{ id: string }>(`${INSERT_BLOCKS_SQL} RETURNING id`, params);
        inserted = rows.length;
      }
      const committedOffset = await commitOffset(tx, commit);
      return { inserted, committedOffset };
    });
  }

  /** Commits an offset without blocks (e.g. a consumed range that held only records of deleted datasets). */
  async commitOffset(commit: OffsetCommit): Promise<number> {
    checkCommit(commit);
    return commitOffset(this.db, commit);
  }

  /** The next offset to consume in `partition`: 0 for a fresh store. */
  async committedOffset(partition: number): Promise<number> {
    const rows = await this.db.query<{ committed_offset: unknown }>(
      'SELECT committed_offset FROM log_offsets WHERE partition = $1',
      [partition],
    );
    return rows.length > 0 ? numberOf(rows[0].committed_offset) : 0;
  }

  /** How often the `log` ('events' or 'metrics') started over from offset 0 (see `blockIdFor`). */
  async logEpoch(log: 'events' | 'metrics'): Promise<number> {
    const rows = await this.db.query<{ epoch: unknown }>('SELECT epoch FROM log_epochs WHERE log = $1', [
      log,
    ]);
    return rows.length > 0 ? numberOf(rows[0].epoch) : 0;
  }

  /** The committed offset of every partition that has one. */
  async committedOffsets(): Promise<Map<number, number>> {
    const rows = await this.db.query<{ partition: unknown; committed_offset: unknown }>(
      'SELECT partition, committed_offset FROM log_offsets',
    );
    return new Map(rows.map((r) => [numberOf(r.partition), numberOf(r.committed_offset)]));
  }

  /** Per dataset: the version of its block list (moved by every insert or delete of its blocks). */
  async blockVersions(): Promise<Map<string, number>> {
    const rows = await this.db.query<{ dataset_id: string; version: unknown }>(
      'SELECT dataset_id, version FROM block_versions',
    );
    return new Map(rows.map((r) => [r.dataset_id, numberOf(r.version)]));
  }

  /** The blocks of several datasets (for a catalog refresh), grouped by dataset and ordered like `listBlocks`. */
  async listBlocksOf(datasetIds: readonly string[]): Promise<Map<string, BlockRecord[]>> {
    const out = new Map<string, BlockRecord[]>(datasetIds.map((id) => [id, []]));
    if (datasetIds.length === 0) return out;
    const rows = await this.db.query<BlockRow>(
      `SELECT ${COLUMNS} FROM blocks WHERE dataset_id = ANY($1::text[]) ORDER BY min_time, id`,
      [[...datasetIds]],
    );
    for (const row of rows) out.get(row.dataset_id)?.push(toBlock(row));
    return out;
  }

  /** Every registered block object key (the orphan sweep's reference set). */
  async objectKeys(): Promise<Set<string>> {
    const rows = await this.db.query<{ object_key: string }>('SELECT object_key FROM blocks');
    return new Set(rows.map((r) => r.object_key));
  }

  async getBlock(id: string): Promise<BlockRecord | null> {
    const rows = await this.db.query<BlockRow>(`SELECT ${COLUMNS} FROM blocks WHERE id = $1`, [id]);
    return rows.length > 0 ? toBlock(rows[0]) : null;
  }

  /**
   * Blocks of a dataset ordered by `minTime` (then id, for a stable order). With `range`, only blocks that
   * may hold rows in `[startMs, endMs)`.
   */
  async listBlocks(datasetId: string, range?: TimeRange): Promise<BlockRecord[]> {
    const rows = await this.db.query<BlockRow>(
      `SELECT ${COLUMNS} FROM blocks
       WHERE dataset_id = $1 AND ($2::float8 IS NULL OR (max_time >= $2 AND min_time < $3))
       ORDER BY min_time, id`,
      [datasetId, range?.startMs ?? null, range?.endMs ?? null],
    );
    return rows.map(toBlock);
  }

  /**
   * Atomically replaces blocks (the merge loop): inserts `added` and deletes `removedIds` in one
   * transaction, so a query sees either the inputs or the merged block, never both or neither. Returns
   * the removed rows; the caller deletes their objects later (queries in flight may still read them).
   */
  async swapBlocks(
    removedIds: readonly string[],
    added: readonly BlockRecord[],
    options: { requireAll?: boolean } = {},
  ): Promise<BlockRecord[]> {
    return this.db.transaction(async (tx) => {
      if (added.length > 0) {
        const inserted = await tx.query(
          `${INSERT_BLOCKS_SQL} RETURNING id`,
          INSERT_COLUMNS.map(([, , get]) => added.map(get)),
        );
        if (options.requireAll && inserted.length !== added.length) {
          throw conflict('a block with the merged id is already registered', { code: 'blocks_changed' });
        }
      }
      if (removedIds.length === 0) return [];
      const rows = await tx.query<BlockRow>(
        `DELETE FROM blocks WHERE id = ANY($1::text[]) RETURNING ${COLUMNS}`,
        [[...removedIds]],
      );
      // A merge must replace every input or nothing: with several processes (a trim, a dataset delete or
      // another merger) an input may be gone, and inserting the merged block then would duplicate rows.
      if (options.requireAll && rows.length !== new Set(removedIds).size) {
        throw conflict(`${removedIds.length - rows.length} of the blocks to replace are gone`, {
          code: 'blocks_changed',
        });
      }
      return rows.map(toBlock).sort(byMinTime);
    });
  }

  /** Deletes every block row of a dataset and returns them (ordered by `minTime`): the caller deletes the objects. */
  async deleteBlocksOfDataset(datasetId: string): Promise<BlockRecord[]> {
    const rows = await this.db.query<BlockRow>(
      `DELETE FROM blocks WHERE dataset_id = $1 RETURNING ${COLUMNS}`,
      [datasetId],
    );
    return rows.map(toBlock).sort(byMinTime);
  }
}

async function commitOffset(db: SqlDatabase, commit: OffsetCommit): Promise<number> {
  if (commit.expectedOffset !== undefined) return compareAndSetOffset(db, commit, commit.expectedOffset);
  // GREATEST: a replay (or a late, slower committer) never moves the offset backwards.
  const rows = await db.query<{ committed_offset: unknown }>(
    `INSERT INTO log_offsets (partition, committed_offset) VALUES ($1, $2)
     ON CONFLICT (partition) DO UPDATE SET committed_offset = GREATEST(log_offsets.committed_offset, EXCLUDED.committed_offset)
     RETURNING committed_offset`,
    [commit.partition, commit.offset],
  );
  return numberOf(rows[0].committed_offset);
}

async function compareAndSetOffset(db: SqlDatabase, commit: OffsetCommit, expected: number): Promise<number> {
  // Insert-if-absent covers a partition nobody committed yet (expected 0); then the update succeeds only
  // from the expected value. Both run in the caller's transaction, so a conflict rolls back its blocks.
  if (expected === 0) {
    await db.query(
      'INSERT INTO log_offsets (partition, committed_offset) VALUES ($1, 0) ON CONFLICT (partition) DO NOTHING',
      [commit.partition],
    );
  }
  const rows = await db.query<{ committed_offset: unknown }>(
    `UPDATE log_offsets SET committed_offset = $2 WHERE partition = $1 AND committed_offset = $3
     RETURNING committed_offset`,
    [commit.partition, commit.offset, expected],
  );
  if (rows.length === 1) return numberOf(rows[0].committed_offset);
  const current = await db.query<{ committed_offset: unknown }>(
    'SELECT committed_offset FROM log_offsets WHERE partition = $1',
    [commit.partition],
  );
  const committed = current.length > 0 ? numberOf(current[0].committed_offset) : 0;
  throw conflict(
    `log partition ${commit.partition} is committed through ${committed}, not ${expected}: another compactor took it over`,
    { code: 'log_offset_moved', details: { partition: commit.partition, committed, expected } },
  );
}

function checkCommit(commit: OffsetCommit): void {
  if (!Number.isSafeInteger(commit.partition) || commit.partition < 0) {
    throw invalid(`invalid log partition ${commit.partition}`, { code: 'offset_commit_invalid' });
  }
  if (!Number.isSafeInteger(commit.offset) || commit.offset < 0) {
    throw invalid(`invalid log offset ${commit.offset}`, { code: 'offset_commit_invalid' });
  }
  const expected = commit.expectedOffset;
  if (
    expected !== undefined &&
    (!Number.isSafeInteger(expected) || expected < 0 || expected > commit.offset)
  ) {
    throw invalid(`invalid expected log offset ${expected} for a commit of ${commit.offset}`, {
      code: 'offset_commit_invalid',
    });
  }
}

function byMinTime(a: BlockRecord, b: BlockRecord): number {
  return a.minTime - b.minTime || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
