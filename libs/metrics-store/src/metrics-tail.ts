import type { BlockSeries } from './point-block';

/** Points of one series from one log record, normalized (sorted, one point per second). */
export interface TailChunk {
  readonly offset: number;
  readonly series: BlockSeries;
}

/**
 * Acknowledged points not yet in a block, by dataset and metric (read-your-writes). The compactor drops
 * a log range right after registering its blocks; an `add` for a range already compacted (a slow ingest
 * request racing the compactor) is ignored by the watermark, so no point is seen twice.
 */
export class MetricsTail {
  private readonly chunks = new Map<string, Map<string, TailChunk[]>>();
  private watermark = -1;
  points = 0;

  add(datasetId: string, metric: string, chunk: TailChunk): void {
    if (chunk.offset <= this.watermark) return;
    let metrics = this.chunks.get(datasetId);
    if (!metrics) this.chunks.set(datasetId, (metrics = new Map()));
    let list = metrics.get(metric);
    if (!list) metrics.set(metric, (list = []));
    list.push(chunk);
    this.points += chunk.series.times.length;
  }

  /** A snapshot (copy) of the chunks of one metric, in offset order. */
  of(datasetId: string, metric: string): TailChunk[] {
    const list = this.chunks.get(datasetId)?.get(metric);
    return list ? [...list].sort((a, b) => a.offset - b.offset) : [];
  }

  /** Drops every chunk with offset <= `offset`. */
  dropThrough(offset: number): void {
    this.watermark = Math.max(this.watermark, offset);
    for (const metrics of this.chunks.values()) {
      for (const [metric, list] of metrics) {
        const kept = list.filter((c) => c.offset > offset);
        for (const c of list) if (c.offset <= offset) this.points -= c.series.times.length;
        if (kept.length === 0) metrics.delete(metric);
        else metrics.set(metric, kept);
      }
    }
  }

  dropDataset(datasetId: string): void {
    const metrics = this.chunks.get(datasetId);
    if (!metrics) return;
    for (const list of metrics.values()) for (const c of list) this.points -= c.series.times.length;
    this.chunks.delete(datasetId);
  }
}
