import type { BlockRecord } from '@quarry/contracts';
import { Metastore } from '@quarry/metastore';
import { MemoryObjectStore } from '@quarry/objstore';
import { AsyncMutex } from './async-mutex';
import { BlockIndex } from './block-index';
import { blocksPastRetention, RetentionSweeper } from './retention';

const DAY_MS = 86_400_000;
const NOW = Date.UTC(2026, 10, 26, 12);

function block(datasetId: string, n: number, maxTime: number): BlockRecord {
  return {
    id: `${datasetId}-b${n}`,
    datasetId,
    objectKey: `blocks/${datasetId}/b${n}`,
    rowCount: 10,
    sizeBytes: 100,
    minTime: maxTime - 1_000,
    maxTime,
    partition: 0,
    firstOffset: n * 10,
    lastOffset: n * 10 + 9,
    createdAt: new Date(NOW).toISOString(),
  };
}

describe('blocksPastRetention', () => {
  const blocks = [block('d', 1, NOW - 3 * DAY_MS), block('d', 2, NOW - DAY_MS + 1), block('d', 3, NOW)];

  it('picks the blocks whose newest event is older than the retention', () => {
    expect(blocksPastRetention(blocks, 1, NOW).map((b) => b.id)).toEqual(['d-b1']);
    expect(blocksPastRetention(blocks, 4, NOW)).toEqual([]);
  });

  it('keeps everything without a retention', () => {
    expect(blocksPastRetention(blocks, 0, NOW)).toEqual([]);
  });
});

/** The sweep against a real (in-memory) metastore, in both coordination modes. */
describe('RetentionSweeper', () => {
  let metastore: Metastore;
  let objects: MemoryObjectStore;
  let index: BlockIndex;
  const forgotten: string[] = [];

  beforeEach(async () => {
    metastore = await Metastore.open(null);
    objects = new MemoryObjectStore();
    index = new BlockIndex();
    forgotten.length = 0;
    await metastore.datasets.create({ id: 'short', name: 'short', retentionDays: 1 });
    await metastore.datasets.create({ id: 'keep', name: 'keep' });
    const all = [
      block('short', 1, NOW - 3 * DAY_MS),
      block('short', 2, NOW),
      block('keep', 3, NOW - 3 * DAY_MS),
      block('keep', 4, NOW),
    ];
    for (const b of all) await objects.put(b.objectKey, new Uint8Array([1]));
    await metastore.blocks.registerBlocks(all, { partition: 0, offset: 40 });
    index.load(all);
  });
  afterEach(() => metastore.close());

  const sweeper = (coordination?: ConstructorParameters<typeof RetentionSweeper>[5]) =>
    new RetentionSweeper(
      metastore,
      objects,
      index,
      new AsyncMutex(),
      (k) => forgotten.push(k),
      coordination,
      0,
    );
  const ids = (blocks: readonly BlockRecord[]) => blocks.map((b) => b.id).sort();
  const settle = () => new Promise((r) => setTimeout(r, 20));

  it('embedded: drops old blocks from the metastore, the index and (after the grace) the object store', async () => {
    const s = sweeper();
    expect(await s.sweep(NOW)).toEqual({ blocks: 1, events: 10 });
    expect(ids(await metastore.blocks.listBlocks('short'))).toEqual(['short-b2']);
    expect(ids(index.list('short'))).toEqual(['short-b2']);
    expect(ids(index.list('keep'))).toEqual(['keep-b3', 'keep-b4']);
    await settle();
    expect(forgotten).toEqual(['blocks/short/b1']);
    expect((await objects.list('blocks/')).sort()).toEqual([
      'blocks/keep/b3',
      'blocks/keep/b4',
      'blocks/short/b2',
    ]);
    expect(await s.sweep(NOW)).toEqual({ blocks: 0, events: 0 });
    expect(s.totals).toEqual({ blocks: 1, events: 10 });
  });

  it('cluster: skips a round without the lease, reads the metastore and leaves the index to the catalog sync', async () => {
    let leased = false;
    const s = sweeper({ applyLocally: false, beforeRound: async () => leased });
    expect(await s.sweep(NOW)).toEqual({ blocks: 0, events: 0 });
    expect(ids(await metastore.blocks.listBlocks('short'))).toEqual(['short-b1', 'short-b2']);
    leased = true;
    expect(await s.sweep(NOW)).toEqual({ blocks: 1, events: 10 });
    expect(ids(await metastore.blocks.listBlocks('short'))).toEqual(['short-b2']);
    // The index is the catalog sync's to update in the cluster shape.
    expect(ids(index.list('short'))).toEqual(['short-b1', 'short-b2']);
  });

  it('sees a retention changed in the metastore at the next round', async () => {
    await metastore.datasets.update('keep', { retentionDays: 2 });
    expect(await sweeper().sweep(NOW)).toEqual({ blocks: 2, events: 20 });
    expect(ids(index.list('keep'))).toEqual(['keep-b4']);
  });
});
