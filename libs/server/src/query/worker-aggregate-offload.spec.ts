import type { BlockRecord } from '@quarry/contracts';
import { dealBlocks } from './worker-aggregate-offload';

const block = (objectKey: string, rowCount: number): BlockRecord => ({
  id: objectKey,
  datasetId: 'd',
  objectKey,
  rowCount,
  sizeBytes: 1,
  minTime: 0,
  maxTime: 1,
  partition: 0,
  firstOffset: 0,
  lastOffset: 0,
  createdAt: '',
});

describe('dealBlocks', () => {
  it('deals every block once, the same way each time, with no shard far above its share', () => {
    const blocks = Array.from({ length: 40 }, (_, i) =>
      block(`blocks/d/${i}.qblk`, 1000 + ((i * 7919) % 5000)),
    );
    const shards = dealBlocks(blocks, 3);
    expect(
      shards
        .flat()
        .map((b) => b.objectKey)
        .sort(),
    ).toEqual(blocks.map((b) => b.objectKey).sort());
    expect(dealBlocks([...blocks].reverse(), 3)).toEqual(shards);
    const total = blocks.reduce((a, b) => a + b.rowCount, 0);
    for (const shard of shards) {
      const rows = shard.reduce((a, b) => a + b.rowCount, 0);
      expect(rows).toBeLessThanOrEqual((total / 3) * 1.25 + 6000);
    }
  });

  it('keeps a block on its shard when a few others change', () => {
    const blocks = Array.from({ length: 12 }, (_, i) => block(`k${i}`, 100));
    const before = dealBlocks(blocks, 2);
    const after = dealBlocks([...blocks, block('k-new', 100)], 2);
    const shardOf = (shards: BlockRecord[][], key: string) =>
      shards.findIndex((s) => s.some((b) => b.objectKey === key));
    const moved = blocks.filter((b) => shardOf(before, b.objectKey) !== shardOf(after, b.objectKey));
    expect(moved.length).toBeLessThanOrEqual(2);
  });
});
