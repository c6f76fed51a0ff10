import * as fs from 'node:fs/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { CachingObjectStore } from './caching-object-store';
import { MemoryObjectStore } from './memory-object-store.fake';
import { objectStoreContract } from './object-store.contract';
import type { ObjectStore } from './object-store.port';

objectStoreContract('CachingObjectStore over MemoryObjectStore', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-cache-'));
  const store = await CachingObjectStore.open({
    inner: new MemoryObjectStore(),
    dir,
    maxBytes: 64 * 1024 * 1024,
  });
  return {
    store,
    cleanup: async () => {
      await store.close();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
});

/** A memory store that counts calls and can hold fetches until released. */
class CountingStore implements ObjectStore {
  readonly inner = new MemoryObjectStore();
  readonly calls: string[] = [];
  gate: Promise<void> | null = null;

  count(op: string): number {
    return this.calls.filter((c) => c.startsWith(op)).length;
  }
  async put(key: string, body: Uint8Array) {
    this.calls.push(`put ${key}`);
    return this.inner.put(key, body);
  }
  /** Reads at once, then holds the answer until `gate` opens (a slow transfer). */
  async get(key: string) {
    this.calls.push(`get ${key}`);
    const body = this.inner.get(key);
    body.catch(() => undefined); // rejections are seen by the caller, after the gate
    await this.gate;
    return body;
  }
  async getRange(key: string, offset: number, length: number) {
    this.calls.push(`getRange ${key} ${offset} ${length}`);
    const body = this.inner.getRange(key, offset, length);
    body.catch(() => undefined);
    await this.gate;
    return body;
  }
  async head(key: string) {
    this.calls.push(`head ${key}`);
    return this.inner.head(key);
  }
  async delete(key: string) {
    this.calls.push(`delete ${key}`);
    return this.inner.delete(key);
  }
  async list(prefix: string) {
    this.calls.push(`list ${prefix}`);
    return this.inner.list(prefix);
  }
}

const seq = (n: number, seed = 0) => Uint8Array.from({ length: n }, (_, i) => (i * 7 + seed) & 0xff);
const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b));

async function filesUnder(dir: string): Promise<{ file: string; size: number }[]> {
  const out: { file: string; size: number }[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath ?? entry.path, entry.name);
    out.push({ file, size: (await fs.stat(file)).size });
  }
  return out;
}

describe('CachingObjectStore', () => {
  let root: string;
  let dir: string;
  let inner: CountingStore;
  let cache: CachingObjectStore;
  const open = (maxBytes = 1024 * 1024, extra: { maxEntryBytes?: number } = {}) =>
    CachingObjectStore.open({ inner, dir, maxBytes, ...extra });

  beforeEach(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'quarry-cache-'));
    dir = path.join(root, 'worker-0');
    inner = new CountingStore();
    cache = await open();
  });
  afterEach(async () => {
    await cache.close();
    await fs.rm(root, { recursive: true, force: true });
  });

  it('serves warm reads without reaching the inner store', async () => {
    const body = seq(10_000);
    await inner.put('blocks/b1', body);
    expect(same(await cache.get('blocks/b1'), body)).toBe(true);
    expect(same(await cache.getRange('blocks/b1', 100, 50), body.subarray(100, 150))).toBe(true);
    expect(same(await cache.getRange('blocks/b1', 9990, 100), body.subarray(9990))).toBe(true);
    expect(await cache.head('blocks/b1')).toEqual({ size: 10_000 });
    expect(same(await cache.get('blocks/b1'), body)).toBe(true);
    expect(inner.calls).toEqual(['put blocks/b1', 'get blocks/b1']);
    await expect(cache.getRange('blocks/b1', 10_001, 1)).rejects.toMatchObject({ kind: 'invalid' });
    expect((await cache.getRange('blocks/b1', 10_000, 5)).length).toBe(0);
    expect(cache.stats()).toMatchObject({ hits: 3, misses: 1, headHits: 1, entries: 1 });
  });

  it('caches ranges, and serves a range inside a cached one', async () => {
    const body = seq(100_000, 3);
    await inner.put('b', body);
    // The block reader's footer read: the last 64 KiB.
    expect(same(await cache.getRange('b', 100_000 - 65_536, 65_536), body.subarray(100_000 - 65_536))).toBe(
      true,
    );
    expect(same(await cache.getRange('b', 100_000 - 65_536, 65_536), body.subarray(100_000 - 65_536))).toBe(
      true,
    );
    expect(same(await cache.getRange('b', 90_000, 20), body.subarray(90_000, 90_020))).toBe(true);
    expect(inner.count('getRange')).toBe(1);
    // Past the end of the cached tail: that entry came back unclipped, so the cache cannot know it ends
    // the object and asks; the clipped answer then marks the end.
    expect(same(await cache.getRange('b', 99_990, 1000), body.subarray(99_990))).toBe(true);
    expect(same(await cache.getRange('b', 99_995, 1000), body.subarray(99_995))).toBe(true);
    expect(inner.count('getRange')).toBe(2);
    // Not covered: starts before the cached ranges.
    expect(same(await cache.getRange('b', 0, 10), body.subarray(0, 10))).toBe(true);
    expect(same(await cache.getRange('b', 2, 5), body.subarray(2, 7))).toBe(true);
    expect(inner.count('getRange')).toBe(3);
    // The size is known from the tail entry: no head needed, and ranges past the end fail locally.
    expect(await cache.head('b')).toEqual({ size: 100_000 });
    await expect(cache.getRange('b', 100_001, 1)).rejects.toMatchObject({ kind: 'invalid' });
    expect(inner.count('head')).toBe(0);
    expect(inner.count('getRange')).toBe(3);
  });

  it('keeps different keys and ranges apart', async () => {
    await inner.put('k1', seq(1000, 1));
    await inner.put('k2', seq(1000, 2));
    const a = await cache.getRange('k1', 0, 100);
    const b = await cache.getRange('k2', 0, 100);
    const c = await cache.getRange('k1', 100, 100);
    expect(same(await cache.getRange('k1', 0, 100), a)).toBe(true);
    expect(same(await cache.getRange('k2', 0, 100), b)).toBe(true);
    expect(same(await cache.getRange('k1', 100, 100), c)).toBe(true);
    expect(same(a, b)).toBe(false);
    expect(same(a, seq(1000, 1).subarray(0, 100))).toBe(true);
    expect(inner.count('getRange')).toBe(3);
  });

  it('evicts least recently used entries to stay within maxBytes', async () => {
    await cache.close();
    cache = await open(100_000);
    for (let i = 0; i < 10; i++) await inner.put(`o/${i}`, seq(20_000, i));
    await cache.get('o/0');
    await cache.get('o/1');
    for (let i = 2; i < 10; i++) {
      await cache.get(`o/${i}`);
      await cache.get('o/0'); // keep o/0 recently used
      const stats = cache.stats();
      expect(stats.bytesCached).toBeLessThanOrEqual(100_000);
    }
    const stats = cache.stats();
    expect(stats.evictions).toBeGreaterThanOrEqual(5);
    expect(stats.entries).toBeLessThanOrEqual(4);
    const files = await filesUnder(path.join(dir, 'data'));
    // Deletions of evicted files run in the background; wait for them through close().
    await cache.close();
    const after = await filesUnder(path.join(dir, 'data'));
    expect(after.reduce((n, f) => n + f.size, 0)).toBeLessThanOrEqual(100_000);
    expect(after.length).toBeLessThanOrEqual(files.length);
    cache = await open(100_000);
    inner.calls.length = 0;
    await cache.get('o/0'); // the most recently used survived
    await cache.get('o/9');
    expect(inner.calls).toEqual([]);
    await cache.get('o/1'); // long evicted
    expect(inner.calls).toEqual(['get o/1']);
  });

  it('does not cache results above maxEntryBytes', async () => {
    await cache.close();
    cache = await open(1_000_000, { maxEntryBytes: 1000 });
    await inner.put('big', seq(5000));
    await cache.get('big');
    await cache.get('big');
    expect(inner.count('get')).toBe(2);
    await cache.getRange('big', 0, 1000);
    await cache.getRange('big', 0, 1000);
    expect(inner.count('getRange')).toBe(1);
  });

  it('fetches concurrent identical misses once', async () => {
    await inner.put('hot', seq(50_000));
    let release!: () => void;
    inner.gate = new Promise((r) => (release = r));
    const gets = Array.from({ length: 10 }, () => cache.get('hot'));
    const ranges = Array.from({ length: 10 }, () => cache.getRange('hot', 10, 20));
    await new Promise((r) => setTimeout(r, 20));
    release();
    const got = await Promise.all(gets);
    const gotRanges = await Promise.all(ranges);
    expect(inner.count('get ')).toBe(1);
    expect(inner.count('getRange')).toBe(1);
    expect(got.every((g) => same(g, seq(50_000)))).toBe(true);
    expect(gotRanges.every((g) => same(g, seq(50_000).subarray(10, 30)))).toBe(true);
    // Every caller got its own copy.
    got[0][0] = 99;
    expect(got[1][0]).toBe(0);
    expect((await cache.get('hot'))[0]).toBe(0);
  });

  it('shares a failure with the joined callers and caches nothing', async () => {
    let release!: () => void;
    inner.gate = new Promise((r) => (release = r));
    const misses = [cache.get('nope'), cache.get('nope')];
    release();
    for (const m of misses) await expect(m).rejects.toMatchObject({ kind: 'not_found' });
    await inner.put('nope', seq(3));
    expect([...(await cache.get('nope'))]).toEqual([0, 7, 14]);
  });

  it('drops the entries of a key on put and delete', async () => {
    await cache.put('k', seq(1000, 1));
    expect(same(await cache.get('k'), seq(1000, 1))).toBe(true);
    expect(same(await cache.getRange('k', 0, 10), seq(1000, 1).subarray(0, 10))).toBe(true);
    expect(await cache.head('k')).toEqual({ size: 1000 });
    await cache.put('k', seq(500, 2));
    expect(await cache.head('k')).toEqual({ size: 500 });
    expect(same(await cache.get('k'), seq(500, 2))).toBe(true);
    expect(same(await cache.getRange('k', 0, 10), seq(500, 2).subarray(0, 10))).toBe(true);
    await cache.delete('k');
    await expect(cache.get('k')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(cache.getRange('k', 0, 1)).rejects.toMatchObject({ kind: 'not_found' });
    expect(await cache.head('k')).toBeNull();
    expect(cache.stats().entries).toBe(0);
  });

  it('does not cache a fetch that a put overtook', async () => {
    await inner.put('k', seq(100, 1));
    let release!: () => void;
    inner.gate = new Promise((r) => (release = r));
    const old = cache.get('k');
    await new Promise((r) => setTimeout(r, 10));
    await cache.put('k', seq(100, 2)); // while the get is held
    release();
    expect(same(await old, seq(100, 1))).toBe(true);
    inner.gate = null;
    expect(same(await cache.get('k'), seq(100, 2))).toBe(true);
    expect(inner.count('get ')).toBe(2);
  });

  it('falls back to the inner store when a cache file is damaged or gone', async () => {
    await inner.put('k', seq(1000));
    await cache.get('k');
    const [file] = await filesUnder(path.join(dir, 'data'));
    await fs.truncate(file.file, file.size - 1);
    expect(same(await cache.get('k'), seq(1000))).toBe(true);
    expect(inner.count('get ')).toBe(2);
    const [again] = await filesUnder(path.join(dir, 'data'));
    await fs.rm(again.file);
    expect(same(await cache.get('k'), seq(1000))).toBe(true);
    expect(inner.count('get ')).toBe(3);
    expect(same(await cache.get('k'), seq(1000))).toBe(true);
    expect(inner.count('get ')).toBe(3);
  });

  it('reuses its files after a clean close, and validates them', async () => {
    await inner.put('a', seq(1000, 1));
    await inner.put('b', seq(1000, 2));
    await cache.get('a');
    await cache.getRange('b', 10, 100);
    await cache.close();
    // A foreign file, a wrong-size file and a leftover temp file are all dropped on open.
    await fs.writeFile(path.join(dir, 'data', 'zz-junk'), 'junk');
    await fs.writeFile(path.join(dir, 'tmp', 'leftover'), 'partial');
    cache = await open();
    inner.calls.length = 0;
    expect(same(await cache.get('a'), seq(1000, 1))).toBe(true);
    expect(same(await cache.getRange('b', 20, 10), seq(1000, 2).subarray(20, 30))).toBe(true);
    expect(inner.calls).toEqual([]);
    expect(cache.stats()).toMatchObject({ entries: 2, hits: 2 });
    expect(await fs.readdir(path.join(dir, 'tmp'))).toEqual([]);
    await expect(fs.stat(path.join(dir, 'data', 'zz-junk'))).rejects.toMatchObject({ code: 'ENOENT' });

    // A file whose header names another key than its name says is rejected too.
    await cache.close();
    const files = await filesUnder(path.join(dir, 'data'));
    const victim = files[0].file;
    const content = await fs.readFile(victim);
    await fs.writeFile(
      victim,
      Buffer.from(content.toString('latin1').replace(/"key":"(a|b)"/, '"key":"c"'), 'latin1'),
    );
    cache = await open();
    expect(cache.stats().entries).toBe(1);
  });

  it('wipes the files after a crash (no clean close)', async () => {
    await inner.put('a', seq(1000, 1));
    await cache.get('a');
    // Simulate a crash: the process is gone, its lock and files stay, there is no CLEAN marker.
    await fs.writeFile(path.join(dir, 'LOCK'), JSON.stringify({ pid: 999_999_999, processStart: 0 }));
    const crashed = cache;
    cache = await open();
    expect(cache.stats().entries).toBe(0);
    expect(await filesUnder(path.join(dir, 'data'))).toEqual([]);
    await cache.get('a');
    expect(inner.count('get ')).toBe(2);
    void crashed; // never closed: it "died"
  });

  it('refuses a directory another live instance uses', async () => {
    await expect(open()).rejects.toMatchObject({ kind: 'conflict', code: 'objstore_cache_dir_in_use' });
    await expect(open()).rejects.toThrow(/its own directory/);
    const other = await CachingObjectStore.open({ inner, dir: path.join(root, 'worker-1'), maxBytes: 1000 });
    await other.close();
  });

  it('keeps list and unknown sizes on the inner store', async () => {
    await inner.put('l/1', seq(1));
    expect(await cache.list('l/')).toEqual(['l/1']);
    expect(await cache.head('l/2')).toBeNull();
    await inner.put('l/2', seq(2));
    expect(await cache.head('l/2')).toEqual({ size: 2 }); // absence is not remembered
    expect(inner.count('list')).toBe(1);
    await expect(cache.getRange('l/1', 0, -1)).rejects.toMatchObject({ kind: 'invalid' });
    await expect(cache.get('../x')).rejects.toMatchObject({ kind: 'invalid' });
  });
});
