import { batchFromEvents } from '@quarry/contracts';
import { MemoryObjectStore } from '@quarry/objstore';
import { buildBlock } from './block-builder';
import { BlockReader } from './block-reader';

/** Two stored blocks of `rows` events with a string and a number column. */
async function twoBlocks(rows: number) {
  const objects = new MemoryObjectStore();
  for (const key of ['blocks/a', 'blocks/b']) {
    const events = Array.from({ length: rows }, (_, i) => ({
      time: 1_000 + i,
      fields: { msg: `${key} event ${i}`, n: i },
    }));
    await objects.put(key, buildBlock([batchFromEvents(events, 1)]).bytes);
  }
  return objects;
}

async function readAll(reader: BlockReader, key: string) {
  const block = await reader.open(key, ['msg', 'n']);
  expect(block.column('msg')).toBeDefined();
  expect(block.column('n')).toBeDefined();
}

describe('BlockReader.forget', () => {
  it('drops the file, footer and decoded columns of a block, and only of that block', async () => {
    const reader = new BlockReader(await twoBlocks(100), {
      columnCacheBytes: 1 << 24,
      fileCacheBytes: 1 << 24,
    });
    await readAll(reader, 'blocks/a');
    const one = reader.cacheBytes;
    await readAll(reader, 'blocks/b');
    expect(reader.cacheBytes.columnCache).toBeGreaterThan(one.columnCache);
    reader.forget('blocks/b');
    expect(reader.cacheBytes).toEqual(one);
    reader.forget('blocks/a');
    expect(reader.cacheBytes).toEqual({ columnCache: 0, fileCache: 0, footerCache: 0, filterCache: 0 });
  });

  // Footers and columns are evicted independently: forget used to find a block's columns through its
  // cached footer, so once the footer was gone its columns stayed until LRU pressure reached them.
  it("drops a block's columns even after its footer left the footer cache", async () => {
    const reader = new BlockReader(await twoBlocks(100), {
      columnCacheBytes: 1 << 24,
      fileCacheBytes: 0,
      // Room for one footer (4 columns: about 900 bytes): reading b evicts a's.
      footerCacheBytes: 1_000,
    });
    await readAll(reader, 'blocks/b');
    const onlyB = reader.cacheBytes.columnCache;
    await readAll(reader, 'blocks/a');
    await readAll(reader, 'blocks/b');
    expect(reader.cacheBytes.footerCache).toBeLessThanOrEqual(1_000);
    expect(reader.cacheBytes.columnCache).toBeGreaterThan(onlyB);
    reader.forget('blocks/a');
    expect(reader.cacheBytes.columnCache).toBe(onlyB);
  });
});
