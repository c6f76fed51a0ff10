import { getHeapStatistics } from 'node:v8';
import { threadId } from 'node:worker_threads';

/**
 * What each worker thread holds, for `/metrics`: `process.memoryUsage()` in the main thread covers only
 * the main isolate, while query workers, ingest/compaction workers and the metastore thread each have a
 * heap, Buffers and caches of their own. Every worker writes its numbers into a slot of a
 * SharedArrayBuffer the main thread gave it (`workerData`) every couple of seconds; the main thread
 * reads the slots when scraped. No message round trip, so a busy worker never delays a scrape (its
 * numbers are then up to a few seconds old).
 *
 * A slot is claimed by the worker's thread id (Atomics), so a pool whose threads come and go (idle
 * timeouts, a worker replaced after running out of heap) reuses slots; a slot not written for
 * `STALE_MS` belongs to a thread that is gone and is neither reported nor kept.
 */

/** The numbers of one thread, in bytes (`updatedAt` in ms since the epoch). */
export const THREAD_MEMORY_FIELDS = [
  'heapUsed',
  'heapTotal',
  'external',
  'arrayBuffers',
  'mallocedMemory',
  'columnCache',
  'fileCache',
  'footerCache',
  'filterCache',
  'wasmMemory',
  'updatedAt',
] as const;
export type ThreadMemoryField = (typeof THREAD_MEMORY_FIELDS)[number];
export type ThreadMemory = Record<ThreadMemoryField, number>;

const FIELD_COUNT = THREAD_MEMORY_FIELDS.length;
const STALE_MS = 15_000;
/** How often a worker writes its slot. */
export const THREAD_MEMORY_INTERVAL_MS = 2_000;

/** The shared slots of one pool: owner thread ids (Int32) then the numbers (Float64). */
export interface ThreadMemorySlots {
  owners: SharedArrayBuffer;
  values: SharedArrayBuffer;
}

export function createThreadMemorySlots(slots: number): ThreadMemorySlots {
  return {
    owners: new SharedArrayBuffer(4 * slots),
    values: new SharedArrayBuffer(8 * slots * FIELD_COUNT),
  };
}

/** The live threads' numbers (slots written in the last `STALE_MS`), as the main thread sees them. */
export function readThreadMemory(slots: ThreadMemorySlots, nowMs = Date.now()): ThreadMemory[] {
  const owners = new Int32Array(slots.owners);
  const values = new Float64Array(slots.values);
  const out: ThreadMemory[] = [];
  for (let slot = 0; slot < owners.length; slot++) {
    if (Atomics.load(owners, slot) === 0) continue;
    const base = slot * FIELD_COUNT;
    const row = {} as ThreadMemory;
    for (let f = 0; f < FIELD_COUNT; f++) row[THREAD_MEMORY_FIELDS[f]] = values[base + f];
    if (nowMs - row.updatedAt > STALE_MS) continue;
    // Claimed but not written yet (`claimSlot` stamps the time before the first `writeThreadMemory`): a
    // live isolate always has a heap, so a zero heap is a slot with no numbers to report.
    if (row.heapTotal === 0) continue;
    out.push(row);
  }
  return out;
}

/** The sum of each field over the live threads of some pools (`updatedAt` is left 0). */
export function sumThreadMemory(rows: readonly ThreadMemory[]): ThreadMemory {
  const sum = Object.fromEntries(THREAD_MEMORY_FIELDS.map((f) => [f, 0])) as ThreadMemory;
  for (const row of rows) for (const f of THREAD_MEMORY_FIELDS) if (f !== 'updatedAt') sum[f] += row[f];
  return sum;
}

/** Caches and other holdings a worker adds to its heap numbers. */
export type ThreadHoldings = () => Partial<Omit<ThreadMemory, 'updatedAt'>>;

/**
 * Claims a slot for this thread (a free one, or one whose owner stopped writing) and returns it, or -1
 * when every slot is held by a live thread.
 */
export function claimSlot(slots: ThreadMemorySlots, me = threadId, nowMs = Date.now()): number {
  const owners = new Int32Array(slots.owners);
  const values = new Float64Array(slots.values);
  for (let slot = 0; slot < owners.length; slot++) {
    if (Atomics.load(owners, slot) === me) return slot;
  }
  for (let slot = 0; slot < owners.length; slot++) {
    const owner = Atomics.load(owners, slot);
    const stale = owner !== 0 && nowMs - values[slot * FIELD_COUNT + FIELD_COUNT - 1] > STALE_MS;
    if ((owner === 0 || stale) && Atomics.compareExchange(owners, slot, owner, me) === owner) {
      values[slot * FIELD_COUNT + FIELD_COUNT - 1] = nowMs;
      return slot;
    }
  }
  return -1;
}

/** Writes this thread's numbers into its slot. */
export function writeThreadMemory(slots: ThreadMemorySlots, slot: number, holdings?: ThreadHoldings): void {
  const values = new Float64Array(slots.values);
  const usage = process.memoryUsage();
  const heap = getHeapStatistics();
  const row: ThreadMemory = {
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    mallocedMemory: heap.malloced_memory,
    columnCache: 0,
    fileCache: 0,
    footerCache: 0,
    filterCache: 0,
    wasmMemory: 0,
    updatedAt: Date.now(),
    ...holdings?.(),
  };
  row.updatedAt = Date.now();
  const base = slot * FIELD_COUNT;
  for (let f = 0; f < FIELD_COUNT; f++) values[base + f] = row[THREAD_MEMORY_FIELDS[f]];
}

/**
 * In a worker: reports this thread's memory into `slots` now and every `THREAD_MEMORY_INTERVAL_MS`
 * (the timer does not keep the thread alive). Does nothing without slots (a pool made by a test).
 */
export function reportThreadMemory(slots: ThreadMemorySlots | undefined, holdings?: ThreadHoldings): void {
  if (!slots) return;
  let slot = claimSlot(slots);
  const tick = () => {
    if (slot < 0) slot = claimSlot(slots);
    if (slot >= 0) writeThreadMemory(slots, slot, holdings);
  };
  tick();
  setInterval(tick, THREAD_MEMORY_INTERVAL_MS).unref();
}
