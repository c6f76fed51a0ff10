/**
 * `CachingObjectStore`: an `ObjectStore` decorator that keeps what a query node fetched on its local disk.
 *
 * Blocks are immutable (a key is never overwritten once written: ids derive from log offsets, merged
 * blocks get a random suffix), so whatever was read can be kept and served again. The cache holds whole
 * objects (`get`) and byte ranges (`getRange`: footers, token filters, column chunks) as files, evicts the
 * least recently used ones to stay within `maxBytes`, and serves a `getRange` from a cached whole object
 * or from any cached range that covers it. `head` answers from sizes it learnt (sizes are immutable too).
 *
 * Correctness:
 * - `put` and `delete` go to the inner store and drop every entry of the key, before and after the inner
 *   call; a fetch that was in flight across one is not cached. Writes by OTHER processes are not seen:
 *   use the cache only over immutable keys.
 * - An entry's identity is (key, whole object | offset + length). Its file starts with a header that
 *   repeats the identity, and its name is a hash of it, so a file can never serve another key or range;
 *   every read checks that the file still has the size its index entry says, and falls back to the inner
 *   store when it does not (or when the file is gone).
 * - Files are written to `tmp/` and renamed into place, so a reader or a crash never sees a partial one.
 * - Concurrent identical misses are fetched once (single flight); each caller gets its own copy.
 * - Local disk trouble (full, I/O errors) never fails a read: the data is served and simply not cached.
 *
 * On disk, under `dir`: `LOCK` (pid of the owner), `CLEAN` (present only between a `close()` and the next
 * `open()`), `tmp/`, and `data/<2 hex>/<sha256 of the identity>.<unique suffix>`. `open` REUSES the files
 * when the previous instance shut down with `close()` (which fsyncs what it wrote and then writes `CLEAN`),
 * re-validating each header and size, and ordering them by modification time for the LRU. After a crash
 * (no `CLEAN`) it wipes `data/` and `tmp/`: unsynced files may have lost their contents with the power,
 * and a cold cache costs only refetches. Other files in `dir` are left alone.
 *
 * One instance per directory: instances do not coordinate, so each worker thread needs its own
 * subdirectory (e.g. `<cache>/worker-<threadId>`), each with its share of the budget. `open` refuses a
 * directory whose `LOCK` names a live process (this one included, until `close()`); a lock left by a dead
 * process, or by an earlier process that had the same pid (container restart), is taken over.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { QuarryError } from '@quarry/common';
import { checkRange, validateKey, validatePrefix } from './object-key';
import type { ObjectStore } from './object-store.port';

export interface CachingObjectStoreOptions {
  /** The store behind the cache (S3 in the cluster shape). */
  inner: ObjectStore;
  /** A directory for this instance alone (see the file comment). Created if missing. */
  dir: string;
  /** Disk budget for cached bytes (files including their small headers), e.g. 1 GiB. */
  maxBytes: number;
  /** Larger results are served but not cached. Default `maxBytes / 4`. */
  maxEntryBytes?: number;
  /** Object sizes remembered for `head` (in memory). Default 100000. */
  maxKnownSizes?: number;
}

export interface CachingObjectStoreStats {
  /** `get`/`getRange` calls served from local disk. */
  hits: number;
  /** `get`/`getRange` calls that went to the inner store (joining an identical fetch in flight included). */
  misses: number;
  /** `head` calls answered from a remembered size. */
  headHits: number;
  /** Bytes of the cache files now on disk. */
  bytesCached: number;
  entries: number;
  /** Entries dropped to stay within `maxBytes`. */
  evictions: number;
  /** Cache files that could not be written or read (disk trouble; the reads were served anyway). */
  diskErrors: number;
}

interface Entry {
  id: string;
  file: string;
  key: string;
  whole: boolean;
  /** Offset of the payload in the object (0 for a whole object). */
  offset: number;
  /** Payload bytes. */
  length: number;
  /** The payload ends where the object ends (always for a whole object). */
  eof: boolean;
  headerBytes: number;
  fileBytes: number;
}

interface Flight {
  key: string;
  promise: Promise<Uint8Array>;
  /** Set by a put or delete of the key: the result must not be cached. */
  stale: boolean;
}

interface Header {
  key: string;
  whole: boolean;
  offset: number;
  length: number;
  eof: boolean;
}

const MAGIC = Buffer.from('QCE1');
const MAX_HEADER_JSON = 64 * 1024;
const LOCK = 'LOCK';
const CLEAN = 'CLEAN';
const FILE_NAME = /^([0-9a-f]{64})\.([0-9a-f]+)$/;

export class CachingObjectStore implements ObjectStore {
  private readonly inner: ObjectStore;
  private readonly root: string;
  private readonly dataDir: string;
  private readonly tmpDir: string;
  private readonly maxBytes: number;
  private readonly maxEntryBytes: number;
  private readonly maxKnownSizes: number;
  /** LRU order: first = least recently used. */
  private readonly index = new Map<string, Entry>();
  private readonly byKey = new Map<string, Set<Entry>>();
  private readonly sizes = new Map<string, number>();
  private readonly flights = new Map<string, Flight>();
  private readonly flightsByKey = new Map<string, Set<Flight>>();
  /** Files written since open, to fsync at close. */
  private readonly unsynced = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();
  private bytes = 0;
  private invalidations = 0;
  private closed = false;
  private readonly counters = { hits: 0, misses: 0, headHits: 0, evictions: 0, diskErrors: 0 };

  private constructor(options: CachingObjectStoreOptions, root: string) {
    this.inner = options.inner;
    this.root = root;
    this.dataDir = path.join(root, 'data');
    this.tmpDir = path.join(root, 'tmp');
    this.maxBytes = options.maxBytes;
    this.maxEntryBytes = options.maxEntryBytes ?? Math.floor(options.maxBytes / 4);
    this.maxKnownSizes = options.maxKnownSizes ?? 100_000;
  }

  /** Opens (and locks) the cache directory; reuses its files after a clean `close()`, else wipes them. */
  static async open(options: CachingObjectStoreOptions): Promise<CachingObjectStore> {
    if (!Number.isSafeInteger(options.maxBytes) || options.maxBytes <= 0)
      throw new QuarryError('invalid', `CachingObjectStore: maxBytes must be a positive integer`);
    const root = path.resolve(options.dir);
    await fs.mkdir(root, { recursive: true });
    await acquireLock(root);
    const cache = new CachingObjectStore(options, root);
    try {
      await cache.load();
    } catch (err) {
      await fs.rm(path.join(root, LOCK), { force: true });
      throw err;
    }
    return cache;
  }

  stats(): CachingObjectStoreStats {
    return { ...this.counters, bytesCached: this.bytes, entries: this.index.size };
  }

  /**
   * Waits for cache writes, makes the files durable, marks the directory clean (so the next `open`
   * reuses it) and releases the lock. The instance must not be used afterwards.
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
    try {
      const files = [...this.unsynced]; // files of entries still indexed (drop() forgets the others)
      await inPool(files, 16, async (f) => fsyncPath(f, 'r+').catch(() => undefined));
      const dirs = new Set(files.map((f) => path.dirname(f)));
      await inPool([...dirs, this.dataDir], 16, async (d) => fsyncPath(d, 'r').catch(() => undefined));
      await fs.writeFile(path.join(this.root, CLEAN), `${new Date().toISOString()}\n`);
      await fsyncPath(path.join(this.root, CLEAN), 'r+');
      await fsyncPath(this.root, 'r');
    } finally {
      await fs.rm(path.join(this.root, LOCK), { force: true });
    }
  }

  async put(key: string, body: Uint8Array): Promise<void> {
    this.checkOpen();
    validateKey(key);
    this.invalidate(key);
    try {
      await this.inner.put(key, body);
    } finally {
      this.invalidate(key);
    }
  }

  async delete(key: string): Promise<void> {
    this.checkOpen();
    validateKey(key);
    this.invalidate(key);
    try {
      await this.inner.delete(key);
    } finally {
      this.invalidate(key);
    }
  }

  async list(prefix: string): Promise<string[]> {
    this.checkOpen();
    validatePrefix(prefix);
    return this.inner.list(prefix);
  }

  async head(key: string): Promise<{ size: number } | null> {
    this.checkOpen();
    validateKey(key);
    const known = this.sizes.get(key);
    if (known !== undefined) {
      this.counters.headHits++;
      return { size: known };
    }
    const invalidations = this.invalidations;
    const head = await this.inner.head(key);
    // Remembered only when no put or delete (of any key) started meanwhile.
    if (head !== null && this.invalidations === invalidations) this.learnSize(key, head.size);
    return head;
  }

  async get(key: string): Promise<Uint8Array> {
    this.checkOpen();
    validateKey(key);
    const whole = this.wholeEntry(key);
    if (whole !== undefined) {
      const hit = await this.readEntry(whole, 0, whole.length);
      if (hit !== null) return hit;
    }
    return this.fetch(
      `W\0${key}`,
      key,
      () => this.inner.get(key),
      (body) => ({
        key,
        whole: true,
        offset: 0,
        length: body.length,
        eof: true,
      }),
    );
  }

  async getRange(key: string, offset: number, length: number): Promise<Uint8Array> {
    this.checkOpen();
    validateKey(key);
    checkRange(key, offset, length, Number.MAX_SAFE_INTEGER);
    const size = this.knownSize(key);
    if (size !== undefined) checkRange(key, offset, length, size);
    const end = size === undefined ? offset + length : Math.min(offset + length, size);
    if (length === 0 || (size !== undefined && offset === size)) {
      if (size !== undefined) return new Uint8Array(0);
      return this.inner.getRange(key, offset, length); // existence and bounds are the inner store's call
    }
    const covering = this.coveringEntry(key, offset, end);
    if (covering !== undefined) {
      const hit = await this.readEntry(
        covering,
        offset,
        Math.min(end, covering.offset + covering.length) - offset,
      );
      if (hit !== null) return hit;
    }
    return this.fetch(
      `R\0${key}\0${offset}\0${length}`,
      key,
      () => this.inner.getRange(key, offset, length),
      (body) => ({ key, whole: false, offset, length: body.length, eof: body.length < length }),
    );
  }

  // --- lookups ---

  private wholeEntry(key: string): Entry | undefined {
    for (const e of this.byKey.get(key) ?? []) if (e.whole) return e;
    return undefined;
  }

  /** An entry holding bytes [offset, end) of the key, where `end` is already clipped when the size is known. */
  private coveringEntry(key: string, offset: number, end: number): Entry | undefined {
    let best: Entry | undefined;
    for (const e of this.byKey.get(key) ?? []) {
      const entryEnd = e.offset + e.length;
      const covers = e.offset <= offset && (end <= entryEnd || (e.eof && offset < entryEnd));
      if (covers && (best === undefined || e.whole || e.length < best.length)) best = e;
    }
    return best;
  }

  private knownSize(key: string): number | undefined {
    const size = this.sizes.get(key);
    if (size !== undefined) return size;
    for (const e of this.byKey.get(key) ?? []) if (e.eof) return e.offset + e.length;
    return undefined;
  }

  private learnSize(key: string, size: number): void {
    this.sizes.delete(key);
    this.sizes.set(key, size);
    if (this.sizes.size > this.maxKnownSizes) this.sizes.delete(this.sizes.keys().next().value!);
  }

  // --- misses ---

  /** Fetches once per identity at a time, caches the result, and gives each caller its own copy. */
  private async fetch(
    identity: string,
    key: string,
    load: () => Promise<Uint8Array>,
    describe: (body: Uint8Array) => Header,
  ): Promise<Uint8Array> {
    this.counters.misses++;
    let flight = this.flights.get(identity);
    if (flight === undefined) {
      const f: Flight = { key, stale: false, promise: undefined as unknown as Promise<Uint8Array> };
      f.promise = (async () => {
        try {
          const body = await load();
          const header = describe(body);
          if (!f.stale && header.eof) this.learnSize(key, header.offset + header.length);
          if (!f.stale) await this.insert(header, body, f);
          return body;
        } finally {
          if (this.flights.get(identity) === f) this.flights.delete(identity);
          const set = this.flightsByKey.get(key);
          set?.delete(f);
          if (set?.size === 0) this.flightsByKey.delete(key);
        }
      })();
      flight = f;
      this.flights.set(identity, f);
      let set = this.flightsByKey.get(key);
      if (set === undefined) this.flightsByKey.set(key, (set = new Set()));
      set.add(f);
      this.track(f.promise.catch(() => undefined));
    }
    return (await flight.promise).slice();
  }

  /** Writes the entry's file (tmp + rename) and indexes it, unless the flight went stale meanwhile. */
  private async insert(header: Header, body: Uint8Array, flight: Flight): Promise<void> {
    const id = entryId(header);
    if (body.length > this.maxEntryBytes) return;
    const existing = this.index.get(id);
    if (existing !== undefined) {
      this.touch(existing);
      return;
    }
    const head = encodeHeader(header);
    const file = path.join(this.dataDir, id.slice(0, 2), `${id}.${randomBytes(8).toString('hex')}`);
    const tmp = path.join(this.tmpDir, `${id}.${randomBytes(8).toString('hex')}`);
    try {
      await fs.mkdir(path.dirname(file), { recursive: true });
      const handle = await fs.open(tmp, 'wx', 0o600);
      try {
        await handle.writev([head, body]);
      } finally {
        await handle.close();
      }
      if (flight.stale || this.index.has(id) || this.closed) {
        await fs.rm(tmp, { force: true });
        return;
      }
      await fs.rename(tmp, file);
    } catch {
      this.counters.diskErrors++;
      await fs.rm(tmp, { force: true }).catch(() => undefined);
      return;
    }
    if (flight.stale || this.index.has(id)) {
      this.track(fs.rm(file, { force: true }));
      return;
    }
    const entry: Entry = {
      id,
      file,
      ...header,
      headerBytes: head.length,
      fileBytes: head.length + body.length,
    };
    this.add(entry);
    this.unsynced.add(file);
    this.evictOverBudget();
  }

  // --- hits ---

  /**
   * Reads `length` bytes at object offset `offset` from an entry's file, or null (and drops the entry)
   * when the file is gone or does not have the size the entry says.
   */
  private async readEntry(entry: Entry, offset: number, length: number): Promise<Uint8Array | null> {
    this.touch(entry);
    const out = new Uint8Array(length);
    try {
      const handle = await fs.open(entry.file, 'r');
      try {
        const stat = await handle.stat();
        if (stat.size !== entry.fileBytes) throw new Error(`cache file ${entry.file} has the wrong size`);
        let done = 0;
        const at = entry.headerBytes + (offset - entry.offset);
        while (done < length) {
          const { bytesRead } = await handle.read(out, done, length - done, at + done);
          if (bytesRead === 0) throw new Error(`cache file ${entry.file} is short`);
          done += bytesRead;
        }
      } finally {
        await handle.close();
      }
    } catch (err) {
      // Evicted or invalidated meanwhile (ENOENT) is expected; anything else is disk trouble.
      if ((err as { code?: string }).code !== 'ENOENT') this.counters.diskErrors++;
      if (this.index.get(entry.id) === entry) this.drop(entry);
      return null;
    }
    this.counters.hits++;
    return out;
  }

  // --- index maintenance ---

  private add(entry: Entry): void {
    this.index.set(entry.id, entry);
    let set = this.byKey.get(entry.key);
    if (set === undefined) this.byKey.set(entry.key, (set = new Set()));
    set.add(entry);
    this.bytes += entry.fileBytes;
  }

  private touch(entry: Entry): void {
    if (this.index.get(entry.id) !== entry) return;
    this.index.delete(entry.id);
    this.index.set(entry.id, entry);
  }

  /** Removes an entry from the index and deletes its file (in the background). */
  private drop(entry: Entry): void {
    if (this.index.get(entry.id) !== entry) return;
    this.index.delete(entry.id);
    const set = this.byKey.get(entry.key);
    set?.delete(entry);
    if (set?.size === 0) this.byKey.delete(entry.key);
    this.bytes -= entry.fileBytes;
    this.unsynced.delete(entry.file);
    this.track(fs.rm(entry.file, { force: true }).catch(() => undefined));
  }

  private evictOverBudget(): void {
    while (this.bytes > this.maxBytes) {
      const lru = this.index.values().next().value;
      if (lru === undefined) break;
      this.drop(lru);
      this.counters.evictions++;
    }
  }

  private invalidate(key: string): void {
    this.invalidations++;
    for (const f of this.flightsByKey.get(key) ?? []) {
      f.stale = true;
      for (const [identity, g] of this.flights) if (g === f) this.flights.delete(identity);
    }
    for (const e of [...(this.byKey.get(key) ?? [])]) this.drop(e);
    this.sizes.delete(key);
  }

  private track(p: Promise<unknown>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private checkOpen(): void {
    if (this.closed) throw new QuarryError('internal', `CachingObjectStore ${this.root} used after close()`);
  }

  // --- open ---

  /** Rebuilds the index from the files of a clean shutdown, or wipes them. */
  private async load(): Promise<void> {
    const cleanMarker = path.join(this.root, CLEAN);
    const clean = await fs
      .stat(cleanMarker)
      .then(() => true)
      .catch(() => false);
    await fs.rm(this.tmpDir, { recursive: true, force: true });
    if (!clean) await fs.rm(this.dataDir, { recursive: true, force: true });
    await fs.rm(cleanMarker, { force: true });
    await fsyncPath(this.root, 'r');
    await fs.mkdir(this.tmpDir, { recursive: true });
    await fs.mkdir(this.dataDir, { recursive: true });
    if (!clean) return;

    const found: { entry: Entry; mtimeMs: number }[] = [];
    for (const sub of await fs.readdir(this.dataDir, { withFileTypes: true })) {
      if (!sub.isDirectory()) {
        await fs.rm(path.join(this.dataDir, sub.name), { recursive: true, force: true });
        continue;
      }
      const names = await fs.readdir(path.join(this.dataDir, sub.name));
      await inPool(names, 16, async (name) => {
        const file = path.join(this.dataDir, sub.name, name);
        const loaded = await loadEntry(file, name, sub.name).catch(() => null);
        if (loaded === null) await fs.rm(file, { recursive: true, force: true });
        else found.push(loaded);
      });
    }
    found.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const { entry } of found) {
      const existing = this.index.get(entry.id);
      if (existing !== undefined) this.drop(existing); // a duplicate: keep the newer file
      this.add(entry);
      if (entry.eof) this.learnSize(entry.key, entry.offset + entry.length);
    }
    this.evictOverBudget();
  }
}

function entryId(h: Header): string {
  const identity = h.whole ? `W\0${h.key}` : `R\0${h.key}\0${h.offset}\0${h.length}\0${h.eof ? 1 : 0}`;
  return createHash('sha256').update(identity).digest('hex');
}

function encodeHeader(h: Header): Buffer {
  const json = Buffer.from(
    JSON.stringify({ key: h.key, whole: h.whole, offset: h.offset, length: h.length, eof: h.eof }),
  );
  const head = Buffer.alloc(8 + json.length);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(json.length, 4);
  json.copy(head, 8);
  return head;
}

/** Reads and checks one cache file's header; null when the file is not a valid entry. */
async function loadEntry(
  file: string,
  name: string,
  subdir: string,
): Promise<{ entry: Entry; mtimeMs: number } | null> {
  const m = FILE_NAME.exec(name);
  if (m === null || m[1].slice(0, 2) !== subdir) return null;
  const handle = await fs.open(file, 'r');
  try {
    const stat = await handle.stat();
    if (!stat.isFile() || stat.size < 8) return null;
    const prefix = Buffer.alloc(8);
    await handle.read(prefix, 0, 8, 0);
    if (!prefix.subarray(0, 4).equals(MAGIC)) return null;
    const jsonLength = prefix.readUInt32LE(4);
    if (jsonLength > MAX_HEADER_JSON || 8 + jsonLength > stat.size) return null;
    const json = Buffer.alloc(jsonLength);
    const { bytesRead } = await handle.read(json, 0, jsonLength, 8);
    if (bytesRead !== jsonLength) return null;
    const h = JSON.parse(json.toString('utf8')) as Header;
    if (
      typeof h.key !== 'string' ||
      typeof h.whole !== 'boolean' ||
      typeof h.eof !== 'boolean' ||
      !Number.isSafeInteger(h.offset) ||
      !Number.isSafeInteger(h.length) ||
      h.offset < 0 ||
      h.length < 0 ||
      (h.whole && (h.offset !== 0 || !h.eof))
    )
      return null;
    validateKey(h.key);
    if (entryId(h) !== m[1]) return null;
    const headerBytes = 8 + jsonLength;
    if (stat.size !== headerBytes + h.length) return null;
    return {
      entry: { id: m[1], file, ...h, headerBytes, fileBytes: stat.size },
      mtimeMs: stat.mtimeMs,
    };
  } finally {
    await handle.close();
  }
}

/**
 * Takes `<root>/LOCK`, or throws `conflict` when a live process holds it. A lock naming this process is
 * held by another instance in it (another worker thread, or one not closed yet), unless it predates this
 * process: then an earlier process had the same pid.
 */
async function acquireLock(root: string): Promise<void> {
  const file = path.join(root, LOCK);
  const processStart = Math.round(Date.now() - process.uptime() * 1000);
  const mine = JSON.stringify({ pid: process.pid, processStart });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, mine, { flag: 'wx' });
      return;
    } catch (err) {
      if ((err as { code?: string }).code !== 'EEXIST') throw err;
    }
    let holder: { pid?: number; processStart?: number } = {};
    try {
      holder = JSON.parse(await fs.readFile(file, 'utf8')) as typeof holder;
    } catch {
      // Unreadable or half-written: treat as stale.
    }
    const pid = holder.pid;
    const live =
      typeof pid === 'number' &&
      pidAlive(pid) &&
      (pid !== process.pid || Math.abs((holder.processStart ?? 0) - processStart) < 5000);
    if (live) {
      throw new QuarryError(
        'conflict',
        `cache directory ${root} is in use by process ${pid}: give every CachingObjectStore (one per worker ` +
          `thread) its own directory, e.g. ${path.join(root, 'worker-<threadId>')}`,
        { code: 'objstore_cache_dir_in_use' },
      );
    }
    await fs.rm(file, { force: true });
  }
  throw new QuarryError('conflict', `could not take the lock of cache directory ${root}`, {
    code: 'objstore_cache_dir_in_use',
  });
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as { code?: string }).code === 'EPERM';
  }
}

async function fsyncPath(p: string, flags: 'r' | 'r+'): Promise<void> {
  const handle = await fs.open(p, flags);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function inPool<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
