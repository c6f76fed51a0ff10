import type { BlockRecord } from '@quarry/contracts';

/**
 * The registered blocks per dataset, mirrored in memory from the metastore. Updated synchronously right
 * after a registration commits (see TailBuffer for why that matters).
 */
export class BlockIndex {
  private readonly byDataset = new Map<string, BlockRecord[]>();
  private readonly generations = new Map<string, number>();

  load(blocks: readonly BlockRecord[]): void {
    for (const b of blocks) this.add([b]);
  }

  add(blocks: readonly BlockRecord[]): void {
    for (const block of blocks) {
      const list = this.byDataset.get(block.datasetId) ?? [];
      if (!list.some((b) => b.id === block.id)) list.push(block);
      this.byDataset.set(block.datasetId, list);
      this.bump(block.datasetId);
    }
  }

  /**
   * Changes whenever the dataset's block list changes. Field schemas are merged before blocks are added,
   * so anything derived from the stored fields may be cached until the generation moves.
   */
  generation(datasetId: string): number {
    return this.generations.get(datasetId) ?? 0;
  }

  private bump(datasetId: string): void {
    this.generations.set(datasetId, this.generation(datasetId) + 1);
  }

  /** Swaps blocks of one dataset in one synchronous step (merges): queries see old or new, never a mix. */
  replace(datasetId: string, removedIds: readonly string[], added: readonly BlockRecord[]): void {
    const removed = new Set(removedIds);
    const kept = (this.byDataset.get(datasetId) ?? []).filter((b) => !removed.has(b.id));
    for (const block of added) if (!kept.some((b) => b.id === block.id)) kept.push(block);
    this.byDataset.set(datasetId, kept);
    this.bump(datasetId);
  }

  /** Replaces a dataset's whole list (a cluster node's catalog refresh), in one synchronous step. */
  setDataset(datasetId: string, blocks: readonly BlockRecord[]): void {
    if (blocks.length === 0) this.byDataset.delete(datasetId);
    else this.byDataset.set(datasetId, [...blocks]);
    this.bump(datasetId);
  }

  /** Registered blocks and their bytes over all datasets (for /metrics). */
  totals(): { blocks: number; bytes: number; rows: number } {
    let blocks = 0;
    let bytes = 0;
    let rows = 0;
    for (const list of this.byDataset.values()) {
      blocks += list.length;
      for (const b of list) {
        bytes += b.sizeBytes;
        rows += b.rowCount;
      }
    }
    return { blocks, bytes, rows };
  }

  list(datasetId: string): readonly BlockRecord[] {
    return [...(this.byDataset.get(datasetId) ?? [])];
  }

  dropDataset(datasetId: string): void {
    this.byDataset.delete(datasetId);
    this.bump(datasetId);
  }
}
