import { batchFromEvents, type ColumnBatch, type NormalizedEvent } from '@quarry/contracts';

/** Events acknowledged into the log but not yet compacted into blocks, kept in memory for queries. */
export interface TailEntry {
  partition: number;
  offset: number;
  datasetId: string;
  sysTime: number;
  events: NormalizedEvent[];
  minTime: number;
  maxTime: number;
  /** Built on first query and reused. */
  batch?: ColumnBatch;
}

/**
 * Read-your-writes: ingest adds each durable record here; the compactor drops records once their block is
 * registered. Both steps run synchronously after their awaits, so a query's synchronous snapshot of the
 * block index plus this buffer sees every acknowledged event exactly once.
 */
export class TailBuffer {
  private readonly byDataset = new Map<string, TailEntry[]>();
  /** Highest offset per partition already covered by registered blocks. */
  private readonly compactedThrough = new Map<number, number>();
  private rowCount = 0;

  get rows(): number {
    return this.rowCount;
  }

  add(entry: Omit<TailEntry, 'minTime' | 'maxTime'>): void {
    // The compactor reads the log, not this buffer, and may have covered this record already if the
    // ingest continuation ran late; adding it then would double it.
    if (entry.offset <= (this.compactedThrough.get(entry.partition) ?? -1)) return;
    let minTime = Number.POSITIVE_INFINITY;
    let maxTime = Number.NEGATIVE_INFINITY;
    for (const event of entry.events) {
      if (event.time < minTime) minTime = event.time;
      if (event.time > maxTime) maxTime = event.time;
    }
    const list = this.byDataset.get(entry.datasetId) ?? [];
    list.push({ ...entry, minTime, maxTime });
    this.byDataset.set(entry.datasetId, list);
    this.rowCount += entry.events.length;
  }

  snapshot(datasetId: string): readonly TailEntry[] {
    return [...(this.byDataset.get(datasetId) ?? [])];
  }

  /** Drops every record of `partition` with offset <= `offset`. */
  dropThrough(partition: number, offset: number): void {
    this.compactedThrough.set(partition, Math.max(offset, this.compactedThrough.get(partition) ?? -1));
    for (const [datasetId, list] of this.byDataset) {
      const kept: TailEntry[] = [];
      for (const entry of list) {
        if (entry.partition !== partition || entry.offset > offset) kept.push(entry);
        else this.rowCount -= entry.events.length;
      }
      if (kept.length === 0) this.byDataset.delete(datasetId);
      else this.byDataset.set(datasetId, kept);
    }
  }

  dropDataset(datasetId: string): void {
    for (const e of this.byDataset.get(datasetId) ?? []) this.rowCount -= e.events.length;
    this.byDataset.delete(datasetId);
  }

  static batchOf(entry: TailEntry): ColumnBatch {
    return (entry.batch ??= batchFromEvents(entry.events, entry.sysTime));
  }
}
