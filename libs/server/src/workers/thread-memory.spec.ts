import { PgliteDatabase } from '@quarry/metastore';
import { CpuPool } from './cpu-pool';
import { QueryPool } from './query-pool';
import {
  claimSlot,
  createThreadMemorySlots,
  readThreadMemory,
  sumThreadMemory,
  writeThreadMemory,
} from './thread-memory';

describe('thread memory slots', () => {
  it('gives each thread its own slot, the same one again, and -1 when all are held by live threads', () => {
    const slots = createThreadMemorySlots(2);
    const now = Date.now();
    expect(claimSlot(slots, 11, now)).toBe(0);
    expect(claimSlot(slots, 12, now)).toBe(1);
    expect(claimSlot(slots, 11, now)).toBe(0);
    expect(claimSlot(slots, 13, now)).toBe(-1);
  });

  it('does not report a slot claimed but not written yet (a worker between its claim and first write)', () => {
    const slots = createThreadMemorySlots(1);
    expect(claimSlot(slots, 41)).toBe(0);
    expect(readThreadMemory(slots)).toHaveLength(0);
    writeThreadMemory(slots, 0);
    expect(readThreadMemory(slots)).toHaveLength(1);
    expect(readThreadMemory(slots)[0].heapUsed).toBeGreaterThan(0);
  });

  it('hands the slot of a thread that stopped writing to a new thread, and does not report it meanwhile', () => {
    const slots = createThreadMemorySlots(1);
    const now = Date.now();
    expect(claimSlot(slots, 21, now)).toBe(0);
    writeThreadMemory(slots, 0, () => ({ columnCache: 5 }));
    expect(readThreadMemory(slots)).toHaveLength(1);
    expect(readThreadMemory(slots, Date.now() + 60_000)).toHaveLength(0);
    expect(claimSlot(slots, 22, Date.now() + 60_000)).toBe(0);
  });

  it("reports this thread's heap and the holdings it adds, and sums threads", () => {
    const slots = createThreadMemorySlots(2);
    writeThreadMemory(slots, claimSlot(slots, 31), () => ({ columnCache: 1000, filterCache: 7 }));
    writeThreadMemory(slots, claimSlot(slots, 32), () => ({ columnCache: 24 }));
    const rows = readThreadMemory(slots);
    expect(rows).toHaveLength(2);
    const usage = process.memoryUsage();
    expect(rows[0].heapTotal).toBeGreaterThan(0);
    // Same isolate, a moment apart: within a factor of two of what this thread reads itself.
    expect(rows[0].heapTotal).toBeLessThan(usage.heapTotal * 2);
    const sum = sumThreadMemory(rows);
    expect(sum.columnCache).toBe(1024);
    expect(sum.filterCache).toBe(7);
    expect(sum.heapUsed).toBe(rows[0].heapUsed + rows[1].heapUsed);
  });
});

// The pools load dist/workers/*.js: `npm test` builds before running the suites.
describe('pools report their workers', () => {
  const eventually = async <T>(read: () => T, ok: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 100; i++) {
      const v = read();
      if (ok(v)) return v;
      await new Promise((r) => setTimeout(r, 50));
    }
    return read();
  };

  it('query workers report their heap and their (empty) caches, one row per shard', async () => {
    const pool = new QueryPool(2, 256);
    try {
      const rows = await eventually(
        () => pool.memory(),
        (r) => r.every((m) => m !== null),
      );
      expect(rows).toHaveLength(2);
      for (const m of rows) {
        expect(m!.heapUsed).toBeGreaterThan(1024 * 1024);
        expect(m!.columnCache).toBe(0);
      }
    } finally {
      await pool.close();
    }
  });

  // With Piscina's default `atomics: 'sync'` an idle worker blocked in Atomics.wait, its report timer never
  // fired again, and after 15 s its row went stale and left /metrics (quarry_cache_bytes read 0).
  it('idle query workers go on reporting (their rows are rewritten every 2 s)', async () => {
    const pool = new QueryPool(1, 256);
    try {
      const first = await eventually(
        () => pool.memory()[0],
        (m) => m !== null,
      );
      const later = await eventually(
        () => pool.memory()[0],
        (m) => m !== null && m.updatedAt > first!.updatedAt,
      );
      expect(later!.updatedAt).toBeGreaterThan(first!.updatedAt);
    } finally {
      await pool.close();
    }
  });

  it("the metastore's PGlite thread reports its heap and its WebAssembly memory", async () => {
    const db = await PgliteDatabase.open(null);
    try {
      const memory = await eventually(
        () => db.memory(),
        (m) => m !== null && m.wasmMemory > 0,
      );
      expect(memory!.heapUsed).toBeGreaterThan(1024 * 1024);
      // PGlite's memory is tens of MiB at least, and counted in the thread's external memory.
      expect(memory!.wasmMemory).toBeGreaterThan(16 * 1024 * 1024);
      expect(memory!.external).toBeGreaterThanOrEqual(memory!.wasmMemory);
    } finally {
      await db.close();
    }
  });

  it('CPU workers report their heap; an inline pool reports none', async () => {
    const pool = CpuPool.create(1);
    try {
      const rows = await eventually(
        () => pool.memory(),
        (r) => r.length > 0,
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].heapUsed).toBeGreaterThan(1024 * 1024);
    } finally {
      await pool.close();
    }
    expect(CpuPool.create(0).memory()).toEqual([]);
  });
});
