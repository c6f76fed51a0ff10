import type { ColumnBatch, ColumnKind, WireType } from './columns';

/** Counters a scan fills in; they become the query status (`rowsExamined`, `blocksExamined`, ...). */
export interface ScanStats {
  blocksExamined: number;
  blocksMatched: number;
  blocksCached: number;
  rowsExamined: number;
  /** Smallest and largest `_time` of the blocks examined (epoch ms), or null when none. */
  minBlockTime: number | null;
  maxBlockTime: number | null;
  /** Distributed queries: what each query node did for this query (absent when it ran on one node). */
  nodes?: NodeScanStats[];
}

/** One query node's share of a distributed query. */
export interface NodeScanStats {
  node: string;
  blocksExamined: number;
  rowsExamined: number;
  /** Stored (compressed) size of the blocks in the share; range reads fetch only the columns needed. */
  blockBytes: number;
  elapsedMs: number;
  /** The nodes that failed this share before this one computed it (re-run elsewhere). */
  failedOn?: string[];
}

export function emptyScanStats(): ScanStats {
  return {
    blocksExamined: 0,
    blocksMatched: 0,
    blocksCached: 0,
    rowsExamined: 0,
    minBlockTime: null,
    maxBlockTime: null,
  };
}

/**
 * What a scan checks to stop early: an `AbortSignal`, or a flag shared with the thread that started the
 * query (query workers: `libs/server/src/workers/shared-cancel.ts`).
 */
export interface Cancellation {
  readonly aborted: boolean;
  /** Throws when aborted. */
  throwIfAborted(): void;
}

export interface ScanRequest {
  /** Inclusive lower bound on `_time` (epoch ms). */
  startMs: number;
  /** Exclusive upper bound on `_time` (epoch ms). */
  endMs: number;
  /** Columns the query needs; `null` means all. `_time` is always included. */
  columns: string[] | null;
  stats: ScanStats;
  signal?: Cancellation;
  /** An optional hint from `top N by _time`; sources may ignore it. */
  timeOrder?: ScanTimeOrder;
  /** Lets a source skip blocks that cannot hold a row the scan's filter keeps; sources may ignore it. */
  pruning?: BlockPruning;
}

/**
 * Block pruning from a scan's filter: `mayMatch` answers false only when no row of the block can pass
 * the filter, judged from the block's statistics (`BlockSummary`); sources call it before decoding any
 * column. `filterColumns` are the columns whose token filters it consults (a source loads those).
 */
export interface BlockPruning {
  filterColumns: readonly string[];
  mayMatch(block: BlockSummary): boolean;
}

/** What a block says about its rows without decoding them. */
export interface BlockSummary {
  rowCount: number;
  /** The column's statistics, or undefined when the block has no such column (null in every row). */
  column(name: string): ColumnSummary | undefined;
}

export interface ColumnSummary {
  kind: ColumnKind;
  nullCount: number;
  /** Smallest and largest non-null value, when recorded (numbers, or strings for string columns). */
  min?: number | string;
  max?: number | string;
  /** Rows per distinct non-null value of a string column, when the block records them (few values). */
  valueCounts?: readonly (readonly [string, number])[];
  /** Token filter of a string column, when it has one and it was asked for (`filterColumns`). */
  filter?: {
    /** False when no value has the term(s), compared case-insensitively. */
    mayContainTerm(term: string): boolean;
    /** False when no value contains the text, compared case-insensitively. */
    mayContainSubstring(needle: string): boolean;
  };
}

/**
 * Lets a `top N by _time` read the newest (or oldest) data first and skip what cannot make the top N:
 * a source that honours it reads its blocks in `direction` order and asks `skip(minMs, maxMs)` about each
 * block's time range before reading it. Batches then arrive in that order, which also decides the order
 * of rows tied on `_time` across blocks.
 */
export interface ScanTimeOrder {
  direction: 'asc' | 'desc';
  skip(minMs: number, maxMs: number): boolean;
}

export interface FieldSchema {
  name: string;
  type: WireType;
}

/**
 * What the query engine needs from a dataset: its schema and a scan. Rows of every batch are already
 * restricted to `[startMs, endMs)`; batches come in no particular order.
 */
export interface DatasetSource {
  readonly name: string;
  /** Fields seen in the dataset (including `_time` and `_sysTime`), sorted by name. */
  schema(): Promise<FieldSchema[]>;
  scan(request: ScanRequest): AsyncIterable<ColumnBatch>;
  /**
   * Optional: the number of rows with `startMs <= _time < endMs`, from metadata where it can (a block
   * entirely inside the window counts its row count without being read). Fills `stats` as a scan would.
   */
  countRows?(startMs: number, endMs: number, stats: ScanStats): Promise<number>;
  /**
   * Optional: rows per value of a string column (null: rows where it is null or absent) with `startMs <=
   * _time < endMs`, from the blocks' recorded value counts where it can (blocks entirely inside the
   * window), decoding only that column elsewhere. Null when the column is not a string everywhere (the
   * caller then scans). Fills `stats` as a scan would, and only when it answers.
   */
  countValues?(column: string, startMs: number, endMs: number, stats: ScanStats): Promise<ValueCounts | null>;
}

/** Rows per value of one column; the key null counts the rows where it is null or absent. */
export type ValueCounts = Map<string | null, number>;

/** Resolves dataset names in queries. Returns null for unknown datasets. */
export interface Catalog {
  getDataset(name: string): Promise<DatasetSource | null>;
  /** Every dataset's name, for name patterns in queries (`union logs*`). Absent: patterns match nothing. */
  listDatasets?(): Promise<string[]>;
}
