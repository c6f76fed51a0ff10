import { TIME_FIELD, type ColumnBatch } from '@quarry/contracts';

/** Events acknowledged into the log but not yet compacted into blocks, kept in memory for queries. */
export interface TailEntry {
  partition: number;
  offset: number;
  datasetId: string;
  sysTime: number;
  /** The record's rows as built at ingest (or decoded at replay); shared by queries and the compactor. */
  batch: ColumnBatch;
  minTime: number;
  maxTime: number;
}

/**
 * Read-your-writes: ingest adds each durable record here; the compactor drops records once their block is
 * registered. Both steps run synchronously after their awaits, so a query's synchronous snapshot of the
 * block index plus this buffer sees every acknowledged event exactly once.
 */
export class TailBuffer {
  private readonly byDataset = new Map<string, TailEntry[]>();
  /** Every entry by partition and offset, for the compactor to take batches from memory. */
  private readonly byPosition = new Map<number, Map<number, TailEntry>>();
  /** Highest offset per partition already covered by registered blocks. */
  private readonly compactedThrough = new Map<number, number>();
  private rowCount = 0;

  get rows(): number {
    return this.rowCount;
  }

  add(entry: Omit<TailEntry, 'minTime' | 'maxTime'>): void {
    // The compactor decodes records missing here from the log, and may have covered this record already
    // if the ingest continuation ran late; adding it then would double it.
    if (entry.offset <= (this.compactedThrough.get(entry.partition) ?? -1)) return;
    let minTime = Number.POSITIVE_INFINITY;
    let maxTime = Number.NEGATIVE_INFINITY;
    const time = entry.batch.columns.get(TIME_FIELD);
    if (time !== undefined && time.kind === 'datetime') {
      const values = time.values;
      for (let i = 0; i < entry.batch.length; i++) {
        if (values[i] < minTime) minTime = values[i];
        if (values[i] > maxTime) maxTime = values[i];
      }
    }
    const full: TailEntry = { ...entry, minTime, maxTime };
    const list = this.byDataset.get(entry.datasetId) ?? [];
    list.push(full);
    this.byDataset.set(entry.datasetId, list);
    let positions = this.byPosition.get(entry.partition);
    if (!positions) {
      positions = new Map();
      this.byPosition.set(entry.partition, positions);
    }
    positions.set(entry.offset, full);
    this.rowCount += entry.batch.length;
  }

  snapshot(datasetId: string): readonly TailEntry[] {
    return [...(this.byDataset.get(datasetId) ?? [])];
  }

  /** The entry of the record at this log position, if it is in memory. */
  at(partition: number, offset: number): TailEntry | undefined {
    return this.byPosition.get(partition)?.get(offset);
  }

  /** Drops every record of `partition` with offset <= `offset`. */
  dropThrough(partition: number, offset: number): void {
    this.compactedThrough.set(partition, Math.max(offset, this.compactedThrough.get(partition) ?? -1));
    for (const [datasetId, list] of this.byDataset) {
      const kept: TailEntry[] = [];
      for (const entry of list) {
        if (entry.partition !== partition || entry.offset > offset) kept.push(entry);
        else this.rowCount -= entry.batch.length;
      }
      if (kept.length === 0) this.byDataset.delete(datasetId);
      else this.byDataset.set(datasetId, kept);
    }
    const positions = this.byPosition.get(partition);
    if (positions) {
      for (const at of positions.keys()) if (at <= offset) positions.delete(at);
    }
  }

  dropDataset(datasetId: string): void {
    for (const e of this.byDataset.get(datasetId) ?? []) {
      this.rowCount -= e.batch.length;
      this.byPosition.get(e.partition)?.delete(e.offset);
    }
    this.byDataset.delete(datasetId);
  }

  static batchOf(entry: TailEntry): ColumnBatch {
    return entry.batch;
  }
}
