/**
 * The contract every `IngestLog` adapter and fake must meet. Spec files call `ingestLogContract` with a
 * factory; capabilities a target lacks (persistence, torn tails) are skipped with the reason in the name.
 */
import { isQuarryError, type ErrorKind } from '@quarry/common';
import type { IngestLog } from './ingest-log.port';

export interface IngestLogHarness {
  log: IngestLog;
  /** Makes the next fdatasync fail as with EIO. */
  failNextSync(): void;
  /** Simulates a full disk until called with false. */
  setDiskFull(full: boolean): void;
  /** Closes the log and opens it again over the same storage. Absent for logs that do not persist. */
  reopen?(): Promise<IngestLog>;
  /** Closes the log, appends `garbage` to the last segment (a torn write), and reopens. */
  tearTail?(garbage: Uint8Array): Promise<IngestLog>;
  cleanup(): Promise<void>;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string) => enc.encode(s);
const text = (b: Uint8Array) => dec.decode(b);

async function expectKind(promise: Promise<unknown>, kind: ErrorKind): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    expect(isQuarryError(err) ? err.kind : err).toBe(kind);
    return err;
  }
  throw new Error(`expected a QuarryError of kind ${kind}, but the call succeeded`);
}

async function readAll(log: IngestLog, from = 0): Promise<{ offset: number; text: string }[]> {
  const out: { offset: number; text: string }[] = [];
  let next = from;
  for (;;) {
    const batch = await log.read(0, next, 1000);
    if (batch.length === 0) return out;
    for (const r of batch) out.push({ offset: r.offset, text: text(r.payload) });
    next = batch[batch.length - 1].offset + 1;
  }
}

export function ingestLogContract(name: string, factory: () => Promise<IngestLogHarness>): void {
  describe(`IngestLog contract: ${name}`, () => {
    let h: IngestLogHarness;
    beforeEach(async () => {
      h = await factory();
    });
    afterEach(async () => {
      await h.log.close().catch(() => undefined);
      await h.cleanup();
    });

    it('starts empty with one partition', async () => {
      expect(h.log.partitions()).toEqual([0]);
      expect(h.log.endOffset(0)).toBe(0);
      expect(await h.log.read(0, 0, 10)).toEqual([]);
      expect(h.log.stats().failed).toBe(false);
    });

    it('assigns consecutive offsets and reads records back in order', async () => {
      const first = await h.log.append('ds1', [bytes('a'), bytes('b')]);
      const second = await h.log.append('ds2', [bytes('c')]);
      expect(first).toEqual([
        { partition: 0, offset: 0 },
        { partition: 0, offset: 1 },
      ]);
      expect(second).toEqual([{ partition: 0, offset: 2 }]);
      expect(h.log.endOffset(0)).toBe(3);
      const records = await h.log.read(0, 0, 10);
      expect(records.map((r) => [r.partition, r.offset, text(r.payload)])).toEqual([
        [0, 0, 'a'],
        [0, 1, 'b'],
        [0, 2, 'c'],
      ]);
    });

    it('reads from an offset, honours maxRecords, and returns nothing past the end', async () => {
      for (let i = 0; i < 10; i++) await h.log.append('k', [bytes(`r${i}`)]);
      expect((await h.log.read(0, 4, 3)).map((r) => text(r.payload))).toEqual(['r4', 'r5', 'r6']);
      expect((await h.log.read(0, 8, 100)).map((r) => r.offset)).toEqual([8, 9]);
      expect(await h.log.read(0, 10, 5)).toEqual([]);
      expect(await h.log.read(0, 50, 5)).toEqual([]);
      expect(await h.log.read(0, 0, 0)).toEqual([]);
    });

    it('accepts empty batches and empty payloads', async () => {
      expect(await h.log.append('k', [])).toEqual([]);
      expect(await h.log.append('k', [new Uint8Array(0), bytes('x')])).toEqual([
        { partition: 0, offset: 0 },
        { partition: 0, offset: 1 },
      ]);
      expect((await readAll(h.log)).map((r) => r.text)).toEqual(['', 'x']);
    });

    it('keeps records larger than a segment intact', async () => {
      const big = new Uint8Array(20_000).map((_, i) => i % 251);
      await h.log.append('k', [bytes('before')]);
      await h.log.append('k', [big, bytes('after')]);
      const records = await h.log.read(0, 0, 10);
      expect(records.map((r) => r.payload.length)).toEqual([6, 20_000, 5]);
      expect(Buffer.from(records[1].payload).equals(Buffer.from(big))).toBe(true);
    });

    it('gives concurrent appenders distinct, contiguous offsets, each batch consecutive', async () => {
      const callers = 40;
      const results = await Promise.all(
        Array.from({ length: callers }, (_, c) =>
          h.log.append(`k${c}`, [bytes(`${c}.0`), bytes(`${c}.1`), bytes(`${c}.2`)]),
        ),
      );
      const all = results.flat().map((p) => p.offset);
      expect([...all].sort((a, b) => a - b)).toEqual(Array.from({ length: callers * 3 }, (_, i) => i));
      for (const r of results) expect([r[1].offset - r[0].offset, r[2].offset - r[1].offset]).toEqual([1, 1]);
      const byOffset = new Map((await readAll(h.log)).map((r) => [r.offset, r.text]));
      results.forEach((r, c) => r.forEach((p, i) => expect(byOffset.get(p.offset)).toBe(`${c}.${i}`)));
    });

    it('serves reads while appends continue, only ever showing acknowledged records', async () => {
      const total = 300;
      const acked = new Set<number>();
      const writers = (async () => {
        const calls: Promise<unknown>[] = [];
        for (let i = 0; i < total; i++) {
          calls.push(h.log.append('k', [bytes(`w${i}`)]).then((p) => acked.add(p[0].offset)));
          if (i % 25 === 0) await new Promise((r) => setImmediate(r));
        }
        await Promise.all(calls);
      })();
      const seen: number[] = [];
      while (seen.length < total) {
        const batch = await h.log.read(0, seen.length, 17);
        for (const r of batch) {
          expect(r.offset).toBe(seen.length);
          expect(r.offset).toBeLessThan(h.log.endOffset(0));
          seen.push(r.offset);
        }
        if (batch.length === 0) await new Promise((r) => setImmediate(r));
      }
      await writers;
      expect(acked.size).toBe(total);
    });

    it('truncateBefore keeps every record at or above the offset and appends continue', async () => {
      for (let i = 0; i < 200; i++) await h.log.append('k', [bytes(`record-${i}`.padEnd(100, '.'))]);
      await h.log.truncateBefore(0, 150);
      const kept = await readAll(h.log, 150);
      expect(kept.map((r) => r.offset)).toEqual(Array.from({ length: 50 }, (_, i) => 150 + i));
      expect(kept[0].text.startsWith('record-150')).toBe(true);
      await expectKind(h.log.read(0, 0, 1), 'not_found');
      expect(h.log.endOffset(0)).toBe(200);
      expect(await h.log.append('k', [bytes('after')])).toEqual([{ partition: 0, offset: 200 }]);
      await h.log.truncateBefore(0, 150); // idempotent
      await h.log.truncateBefore(0, 10);
      expect((await readAll(h.log, 150)).length).toBe(51);
    });

    it('rejects an unknown partition', async () => {
      expect(() => h.log.endOffset(1)).toThrow();
      await expectKind(
        Promise.resolve().then(() => h.log.read(3, 0, 1)),
        'invalid',
      );
    });

    it('after a failed fsync rejects that batch and every later one with unavailable', async () => {
      await h.log.append('k', [bytes('durable')]);
      h.failNextSync();
      const err = await expectKind(h.log.append('k', [bytes('lost')]), 'unavailable');
      expect(String((err as Error).message)).toMatch(/failed/);
      expect(h.log.stats().failed).toBe(true);
      expect(h.log.stats().failure).toBeTruthy();
      // No retry-then-ack: the log stays failed although the disk "works" again.
      await expectKind(h.log.append('k', [bytes('later')]), 'unavailable');
      expect((await readAll(h.log)).map((r) => r.text)).toEqual(['durable']);
      expect(h.log.endOffset(0)).toBe(1);
    });

    it('on a full disk rejects with insufficient_storage and recovers once space is freed', async () => {
      await h.log.append('k', [bytes('one')]);
      h.setDiskFull(true);
      const err = await expectKind(h.log.append('k', [bytes('two'), bytes('three')]), 'insufficient_storage');
      expect((err as { retryAfterSeconds?: number }).retryAfterSeconds).toBe(5);
      expect(h.log.stats().failed).toBe(false);
      h.setDiskFull(false);
      expect(await h.log.append('k', [bytes('four')])).toEqual([{ partition: 0, offset: 1 }]);
      expect((await readAll(h.log)).map((r) => r.text)).toEqual(['one', 'four']);
      if (h.reopen) {
        h.log = await h.reopen();
        expect((await readAll(h.log)).map((r) => r.text)).toEqual(['one', 'four']);
        expect(h.log.stats().tornTailTruncations).toBe(0);
      }
    });

    it('rejects appends after close', async () => {
      await h.log.close();
      await expectKind(h.log.append('k', [bytes('x')]), 'unavailable');
    });

    it('counts what it acknowledged', async () => {
      await h.log.append('k', [bytes('abc'), bytes('de')]);
      const stats = h.log.stats();
      expect(stats.appendedRecords).toBe(2);
      expect(stats.appendedBytes).toBe(5);
      expect(stats.fsyncs).toBeGreaterThanOrEqual(1);
      expect(stats.bytes).toBeGreaterThanOrEqual(5);
    });

    const persistent = (title: string, fn: () => Promise<void>) =>
      it(title, async () => {
        if (!h.reopen) return; // target does not persist: nothing to check
        await fn();
      });

    persistent('keeps acknowledged records and offsets across reopen', async () => {
      for (let i = 0; i < 120; i++) await h.log.append('k', [bytes(`p${i}`.padEnd(60, '-'))]);
      h.log = await h.reopen!();
      expect(h.log.endOffset(0)).toBe(120);
      const all = await readAll(h.log);
      expect(all.map((r) => r.offset)).toEqual(Array.from({ length: 120 }, (_, i) => i));
      expect(all[119].text.startsWith('p119')).toBe(true);
      expect(await h.log.append('k', [bytes('next')])).toEqual([{ partition: 0, offset: 120 }]);
    });

    persistent('truncates a torn tail on reopen and counts it', async () => {
      if (!h.tearTail) return;
      await h.log.append('k', [bytes('a'), bytes('b'), bytes('c')]);
      // A frame header promising 100 bytes followed by only a few of them.
      const torn = new Uint8Array(24);
      new DataView(torn.buffer).setUint32(0, 100, true);
      h.log = await h.tearTail(torn);
      expect(h.log.stats().tornTailTruncations).toBe(1);
      expect((await readAll(h.log)).map((r) => r.text)).toEqual(['a', 'b', 'c']);
      expect(await h.log.append('k', [bytes('d')])).toEqual([{ partition: 0, offset: 3 }]);
      h.log = await h.reopen!();
      expect(h.log.stats().tornTailTruncations).toBe(0);
      expect((await readAll(h.log)).map((r) => r.text)).toEqual(['a', 'b', 'c', 'd']);
    });

    persistent('truncates a complete-looking frame whose CRC does not match', async () => {
      if (!h.tearTail) return;
      await h.log.append('k', [bytes('a')]);
      const bogus = new Uint8Array(16 + 4);
      const view = new DataView(bogus.buffer);
      view.setUint32(0, 4, true);
      view.setUint32(4, 0xdeadbeef, true);
      view.setBigUint64(8, 1n, true);
      h.log = await h.tearTail(bogus);
      expect(h.log.stats().tornTailTruncations).toBe(1);
      expect((await readAll(h.log)).map((r) => r.text)).toEqual(['a']);
    });
  });
}
