import type { ColumnBatch } from '@quarry/contracts';
import { decodeLogRecord, type LogRecordSummary } from './log-codec';

/** Events acknowledged into the log but not yet compacted into blocks, kept in memory for queries. */
export interface TailEntry extends LogRecordSummary {
  partition: number;
  offset: number;
  /** The logged payload; its columns are decoded the first time a query reads them (`batchOf`). */
  payload: Uint8Array;
  batch: ColumnBatch | null;
}

/**
 * Read-your-writes: ingest adds each durable record here; the compactor drops records once their block is
 * registered. Both steps run synchronously after their awaits, so a query's synchronous snapshot of the
 * block index plus this buffer sees every acknowledged event exactly once.
 *
 * Entries keep the encoded record and decode it only when a query reads the tail: ingest builds the
 * columns on a worker thread, and the event loop never pays for decoding records nobody queries before
 * they are compacted.
 */
export class TailBuffer {
  private readonly byDataset = new Map<string, TailEntry[]>();
  /** Highest offset per partition already covered by registered blocks. */
  private readonly compactedThrough = new Map<number, number>();
  private rowCount = 0;
  private payloadBytes = 0;

  get rows(): number {
    return this.rowCount;
  }

  /** The encoded records held (their decoded columns, when a query asked for them, come on top). */
  get bytes(): number {
    return this.payloadBytes;
  }

  /** Adds a logged record (`batch`: its decoded columns when the caller has them). */
  add(
    position: { partition: number; offset: number },
    payload: Uint8Array,
    summary: LogRecordSummary,
    batch: ColumnBatch | null = null,
  ): void {
    // The compactor reads records from the log, and may have covered this one already if the ingest
    // continuation ran late; adding it then would double it.
    if (position.offset <= (this.compactedThrough.get(position.partition) ?? -1)) return;
    const entry: TailEntry = { ...summary, ...position, payload, batch };
    const list = this.byDataset.get(entry.datasetId);
    if (list) list.push(entry);
    else this.byDataset.set(entry.datasetId, [entry]);
    this.rowCount += entry.rows;
    this.payloadBytes += payload.byteLength;
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
        else {
          this.rowCount -= entry.rows;
          this.payloadBytes -= entry.payload.byteLength;
        }
      }
      if (kept.length === 0) this.byDataset.delete(datasetId);
      else this.byDataset.set(datasetId, kept);
    }
  }

  dropDataset(datasetId: string): void {
    for (const e of this.byDataset.get(datasetId) ?? []) {
      this.rowCount -= e.rows;
      this.payloadBytes -= e.payload.byteLength;
    }
    this.byDataset.delete(datasetId);
  }

  /** The entry's rows as columns, decoded from its payload on first use and kept. */
  static batchOf(entry: TailEntry): ColumnBatch {
    entry.batch ??= decodeLogRecord(entry.payload).batch;
    return entry.batch;
  }
}
