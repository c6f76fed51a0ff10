/**
 * The contract every `IngestLog` adapter and fake must meet. Spec files call `ingestLogContract` with a
 * factory and the target's traits; cases needing a capability the target lacks (local-disk faults,
 * persistence, torn tails) are left out, and one case lists them with the reason.
 *
 * Cases never assume partition 0: they use the positions `append` returns, so they hold for a log with
 * one partition and for one that spreads appends over many (Kafka). Each factory call must give a fresh,
 * empty log.
 */
import { isQuarryError, type ErrorKind } from '@quarry/common';
import type { LogPosition } from '@quarry/contracts';
import type { IngestLog } from './ingest-log.port';

export interface IngestLogHarness {
  log: IngestLog;
  /** Makes the next fdatasync fail as with EIO (trait `diskFaults`). */
  failNextSync?(): void;
  /** Simulates a full disk until called with false (trait `diskFaults`). */
  setDiskFull?(full: boolean): void;
  /** Closes the log and opens it again over the same storage (trait `persistent`). */
  reopen?(): Promise<IngestLog>;
  /** Closes the log, appends `garbage` to the last segment (a torn write), and reopens (trait `tornTails`). */
  tearTail?(garbage: Uint8Array): Promise<IngestLog>;
  /** Opens a second instance over the same storage while `log` stays open (trait `concurrentInstances`). */
  openAnother?(): Promise<IngestLog>;
  /** Releases the storage and anything `openAnother` opened. */
  cleanup(): Promise<void>;
}

export interface IngestLogTraits {
  /** Partitions of a fresh log (default 1: partition 0 only). */
  partitions?: number;
  /** The harness injects fsync failures and a full disk. */
  diskFaults?: boolean;
  /** Records survive `reopen`. */
  persistent?: boolean;
  /** The harness can tear the tail of the last segment file. */
  tornTails?: boolean;
  /** Several instances can be open over the same storage at once (`openAnother`). */
  concurrentInstances?: boolean;
  /** `truncateBefore` itself deletes records, so reading below it is `not_found` (Kafka leaves that to retention). */
  truncationDeletes?: boolean;
  /** `stats()` reports local storage: retained `bytes` and `fsyncs`. */
  localStorageStats?: boolean;
}

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string) => enc.encode(s);
const text = (b: Uint8Array) => dec.decode(b);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function expectKind(promise: Promise<unknown>, kind: ErrorKind): Promise<unknown> {
  try {
    await promise;
  } catch (err) {
    expect(isQuarryError(err) ? err.kind : err).toBe(kind);
    return err;
  }
  throw new Error(`expected a QuarryError of kind ${kind}, but the call succeeded`);
}

/**
 * Reads `partition` from `from` until the reader is caught up with `until` (default: the log's own
 * `endOffset`). An empty read below that end means the records are not visible to this reader yet (a
 * Kafka consumer has not fetched them): retry for a while rather than stop early.
 */
async function readAll(
  log: IngestLog,
  partition: number,
  from = 0,
  until?: number,
): Promise<{ offset: number; text: string; payload: Uint8Array }[]> {
  const out: { offset: number; text: string; payload: Uint8Array }[] = [];
  const deadline = Date.now() + 15_000;
  let next = from;
  for (;;) {
    const end = until ?? log.endOffset(partition);
    const batch = await log.read(partition, next, 1000);
    if (batch.length === 0) {
      if (next >= end) return out;
      if (Date.now() > deadline)
        throw new Error(`partition ${partition}: no records at ${next}, below ${end}`);
      await sleep(10);
      continue;
    }
    for (const r of batch) {
      expect(r.partition).toBe(partition);
      out.push({ offset: r.offset, text: text(r.payload), payload: r.payload });
    }
    next = batch[batch.length - 1].offset + 1;
  }
}

/** What a test appended: the expected log content, per partition in offset order (a fresh log starts at 0). */
class Appended {
  readonly byPartition = new Map<number, string[]>();

  /** Checks one sequential append's positions (one partition, consecutive, right after its last record) and records it. */
  add(positions: LogPosition[], texts: string[]): LogPosition[] {
    expect(positions).toHaveLength(texts.length);
    if (positions.length === 0) return positions;
    const partition = positions[0].partition;
    const list = this.records(partition);
    expect(positions).toEqual(texts.map((_, i) => ({ partition, offset: list.length + i })));
    list.push(...texts);
    return positions;
  }

  end(partition: number): number {
    return this.byPartition.get(partition)?.length ?? 0;
  }

  records(partition: number): string[] {
    let list = this.byPartition.get(partition);
    if (!list) this.byPartition.set(partition, (list = []));
    return list;
  }
}

async function appendTexts(log: IngestLog, model: Appended, key: string, texts: string[]) {
  return model.add(await log.append(key, texts.map(bytes)), texts);
}

/** `log` holds exactly what `model` says, every record at its offset. */
async function expectLogMatches(log: IngestLog, model: Appended, crossInstance = false): Promise<void> {
  for (const [partition, texts] of model.byPartition) {
    // Another instance may not have learned the end offset yet: read up to what was appended.
    const all = await readAll(log, partition, 0, crossInstance ? texts.length : undefined);
    expect(all.map((r) => [r.offset, r.text])).toEqual(texts.map((t, i) => [i, t]));
  }
}

export function ingestLogContract(
  name: string,
  factory: () => Promise<IngestLogHarness>,
  traits: IngestLogTraits = {},
): void {
  const partitionCount = traits.partitions ?? 1;
  // A case needing a capability the target lacks is not registered (a skipped test would read as a
  // gap); the one case below lists what was left out, and checks the harness agrees.
  const notApplicable: string[] = [];
  const when = (enabled: boolean | undefined, reason: string) =>
    enabled
      ? it
      : (title: string) => {
          notApplicable.push(`${title}: ${reason}`);
        };
  const withDisk = when(traits.diskFaults, `${name} has no local disk to fail`);
  const persistent = when(traits.persistent, `${name} does not persist across reopen`);
  const tearable = when(traits.tornTails, `${name} has no segment files to tear`);
  const shared = when(
    traits.concurrentInstances || traits.persistent,
    `${name} keeps its records in one instance`,
  );

  describe(`IngestLog contract: ${name}`, () => {
    let h: IngestLogHarness;
    beforeEach(async () => {
      h = await factory();
    });
    afterEach(async () => {
      await h.log.close().catch(() => undefined);
      await h.cleanup();
    });

    it(`starts empty with ${partitionCount === 1 ? 'one partition' : `${partitionCount} partitions`}`, async () => {
      const partitions = Array.from({ length: partitionCount }, (_, i) => i);
      expect(h.log.partitions()).toEqual(partitions);
      for (const p of partitions) {
        expect(h.log.endOffset(p)).toBe(0);
        expect(await h.log.read(p, 0, 10)).toEqual([]);
      }
      expect(h.log.stats().failed).toBe(false);
    });

    it('assigns consecutive offsets and reads records back in order', async () => {
      const model = new Appended();
      await appendTexts(h.log, model, 'ds1', ['a', 'b']);
      await appendTexts(h.log, model, 'ds2', ['c']);
      for (const p of model.byPartition.keys()) expect(h.log.endOffset(p)).toBe(model.end(p));
      await expectLogMatches(h.log, model);
      if (partitionCount === 1) expect(model.records(0)).toEqual(['a', 'b', 'c']);
    });

    it('reads from an offset, honours maxRecords, and returns nothing past the end', async () => {
      const [first] = await h.log.append(
        'k',
        Array.from({ length: 10 }, (_, i) => bytes(`r${i}`)),
      );
      const p = first.partition;
      const base = first.offset;
      expect((await h.log.read(p, base + 4, 3)).map((r) => text(r.payload))).toEqual(['r4', 'r5', 'r6']);
      expect((await h.log.read(p, base + 8, 100)).map((r) => r.offset)).toEqual([base + 8, base + 9]);
      expect(await h.log.read(p, base + 10, 5)).toEqual([]);
      expect(await h.log.read(p, base + 50, 5)).toEqual([]);
      expect(await h.log.read(p, base, 0)).toEqual([]);
      // Backwards again, after reading ahead.
      expect((await h.log.read(p, base + 1, 2)).map((r) => text(r.payload))).toEqual(['r1', 'r2']);
    });

    it('accepts empty batches and empty payloads', async () => {
      expect(await h.log.append('k', [])).toEqual([]);
      const model = new Appended();
      await appendTexts(h.log, model, 'k', ['', 'x']);
      await expectLogMatches(h.log, model);
    });

    it('keeps records larger than a segment intact', async () => {
      const big = new Uint8Array(20_000).map((_, i) => i % 251);
      const [before] = await h.log.append('k', [bytes('before')]);
      const [bigAt, afterAt] = await h.log.append('k', [big, bytes('after')]);
      expect(afterAt).toEqual({ partition: bigAt.partition, offset: bigAt.offset + 1 });
      const records = new Map<string, Uint8Array>();
      for (const p of new Set([before.partition, bigAt.partition])) {
        for (const r of await readAll(h.log, p)) records.set(`${p}:${r.offset}`, r.payload);
      }
      const at = (pos: LogPosition) => records.get(`${pos.partition}:${pos.offset}`)!;
      expect([at(before).length, at(bigAt).length, at(afterAt).length]).toEqual([6, 20_000, 5]);
      expect(Buffer.from(at(bigAt)).equals(Buffer.from(big))).toBe(true);
    });

    it('gives concurrent appenders distinct, contiguous offsets, each batch consecutive', async () => {
      const callers = 40;
      const results = await Promise.all(
        Array.from({ length: callers }, (_, c) =>
          h.log.append(`k${c}`, [bytes(`${c}.0`), bytes(`${c}.1`), bytes(`${c}.2`)]),
        ),
      );
      const offsetsByPartition = new Map<number, number[]>();
      for (const r of results) {
        expect(r.map((p) => p.partition)).toEqual([r[0].partition, r[0].partition, r[0].partition]);
        expect([r[1].offset - r[0].offset, r[2].offset - r[1].offset]).toEqual([1, 1]);
        const list = offsetsByPartition.get(r[0].partition) ?? [];
        offsetsByPartition.set(r[0].partition, [...list, ...r.map((p) => p.offset)]);
      }
      const byPosition = new Map<string, string>();
      for (const [p, offsets] of offsetsByPartition) {
        expect([...offsets].sort((a, b) => a - b)).toEqual(
          Array.from({ length: offsets.length }, (_, i) => i),
        );
        for (const r of await readAll(h.log, p)) byPosition.set(`${p}:${r.offset}`, r.text);
      }
      results.forEach((r, c) =>
        r.forEach((p, i) => expect(byPosition.get(`${p.partition}:${p.offset}`)).toBe(`${c}.${i}`)),
      );
    });

    it('serves reads while appends continue, only ever showing acknowledged records', async () => {
      const total = 300;
      const acked = new Set<string>();
      const writers = (async () => {
        const calls: Promise<unknown>[] = [];
        for (let i = 0; i < total; i++) {
          calls.push(
            h.log.append('k', [bytes(`w${i}`)]).then(([p]) => acked.add(`${p.partition}:${p.offset}`)),
          );
          if (i % 25 === 0) await new Promise((r) => setImmediate(r));
        }
        await Promise.all(calls);
      })();
      const cursors = new Map<number, number>(h.log.partitions().map((p) => [p, 0]));
      const deadline = Date.now() + 60_000;
      let seen = 0;
      while (seen < total) {
        let progressed = false;
        for (const [p, cursor] of cursors) {
          const batch = await h.log.read(p, cursor, 17);
          for (const r of batch) {
            expect(r.offset).toBe(cursors.get(p));
            expect(r.offset).toBeLessThan(h.log.endOffset(p));
            cursors.set(p, r.offset + 1);
            seen++;
          }
          progressed ||= batch.length > 0;
        }
        if (Date.now() > deadline) throw new Error(`read ${seen} of ${total} records`);
        if (!progressed) await new Promise((r) => setImmediate(r));
      }
      await writers;
      expect(acked.size).toBe(total);
    });

    it('truncateBefore keeps every record at or above the offset and appends continue', async () => {
      const model = new Appended();
      for (let i = 0; i < 200; i++) await appendTexts(h.log, model, 'k', [`record-${i}`.padEnd(100, '.')]);
      // The partition of the first append; with one partition that is all 200 records, cut at 150.
      const p = [...model.byPartition.keys()][0];
      const n = model.end(p);
      const cut = Math.floor((n * 3) / 4);
      await h.log.truncateBefore(p, cut);
      const kept = await readAll(h.log, p, cut);
      expect(kept.map((r) => r.offset)).toEqual(Array.from({ length: n - cut }, (_, i) => cut + i));
      expect(kept[0].text).toBe(model.records(p)[cut]);
      if (traits.truncationDeletes) await expectKind(h.log.read(p, 0, 1), 'not_found');
      expect(h.log.endOffset(p)).toBe(n);
      await appendTexts(h.log, model, 'k', ['after']); // checks the offset: right after that partition's end
      await h.log.truncateBefore(p, cut); // idempotent
      await h.log.truncateBefore(p, 10);
      expect((await readAll(h.log, p, cut)).length).toBe(model.end(p) - cut);
    });

    it('rejects an unknown partition', async () => {
      expect(() => h.log.endOffset(partitionCount)).toThrow();
      await expectKind(
        Promise.resolve().then(() => h.log.read(partitionCount + 2, 0, 1)),
        'invalid',
      );
    });

    withDisk('after a failed fsync rejects that batch and every later one with unavailable', async () => {
      const [durable] = await h.log.append('k', [bytes('durable')]);
      h.failNextSync!();
      const err = await expectKind(h.log.append('k', [bytes('lost')]), 'unavailable');
      expect(String((err as Error).message)).toMatch(/failed/);
      expect(h.log.stats().failed).toBe(true);
      expect(h.log.stats().failure).toBeTruthy();
      // No retry-then-ack: the log stays failed although the disk "works" again.
      await expectKind(h.log.append('k', [bytes('later')]), 'unavailable');
      expect((await readAll(h.log, durable.partition)).map((r) => r.text)).toEqual(['durable']);
      expect(h.log.endOffset(durable.partition)).toBe(1);
    });

    withDisk(
      'on a full disk rejects with insufficient_storage and recovers once space is freed',
      async () => {
        const model = new Appended();
        await appendTexts(h.log, model, 'k', ['one']);
        h.setDiskFull!(true);
        const err = await expectKind(
          h.log.append('k', [bytes('two'), bytes('three')]),
          'insufficient_storage',
        );
        expect((err as { retryAfterSeconds?: number }).retryAfterSeconds).toBe(5);
        expect(h.log.stats().failed).toBe(false);
        h.setDiskFull!(false);
        await appendTexts(h.log, model, 'k', ['four']);
        await expectLogMatches(h.log, model);
        if (traits.persistent) {
          h.log = await h.reopen!();
          await expectLogMatches(h.log, model);
          expect(h.log.stats().tornTailTruncations).toBe(0);
        }
      },
    );

    it('rejects appends after close', async () => {
      await h.log.close();
      await expectKind(h.log.append('k', [bytes('x')]), 'unavailable');
    });

    it('counts what it acknowledged', async () => {
      await h.log.append('k', [bytes('abc'), bytes('de')]);
      const stats = h.log.stats();
      expect(stats.appendedRecords).toBe(2);
      expect(stats.appendedBytes).toBe(5);
      if (traits.localStorageStats) {
        expect(stats.fsyncs).toBeGreaterThanOrEqual(1);
        expect(stats.bytes).toBeGreaterThanOrEqual(5);
      }
    });

    shared('records appended by one instance are read by another, and offsets are never reused', async () => {
      const model = new Appended();
      for (let i = 0; i < 6; i++) await appendTexts(h.log, model, `a${i % 2}`, [`a${i}`]);
      let other: IngestLog;
      if (traits.concurrentInstances) {
        other = await h.openAnother!();
      } else {
        h.log = await h.reopen!();
        other = h.log;
      }
      for (let i = 0; i < 6; i++) await appendTexts(other, model, `b${i % 2}`, [`b${i}`, `b${i}+`]);
      if (traits.concurrentInstances) {
        // Interleave: the first instance appends after the second; offsets still never collide.
        for (let i = 0; i < 3; i++) await appendTexts(h.log, model, 'c', [`c${i}`]);
        await expectLogMatches(h.log, model, true);
      }
      await expectLogMatches(other, model, true);
    });

    persistent('keeps acknowledged records and offsets across reopen', async () => {
      const model = new Appended();
      for (let i = 0; i < 120; i++) await appendTexts(h.log, model, 'k', [`p${i}`.padEnd(60, '-')]);
      h.log = await h.reopen!();
      for (const p of model.byPartition.keys()) expect(h.log.endOffset(p)).toBe(model.end(p));
      await expectLogMatches(h.log, model);
      await appendTexts(h.log, model, 'k', ['next']);
    });

    tearable('truncates a torn tail on reopen and counts it', async () => {
      const [a] = await h.log.append('k', [bytes('a'), bytes('b'), bytes('c')]);
      // A frame header promising 100 bytes followed by only a few of them.
      const torn = new Uint8Array(24);
      new DataView(torn.buffer).setUint32(0, 100, true);
      h.log = await h.tearTail!(torn);
      expect(h.log.stats().tornTailTruncations).toBe(1);
      expect((await readAll(h.log, a.partition)).map((r) => r.text)).toEqual(['a', 'b', 'c']);
      expect(await h.log.append('k', [bytes('d')])).toEqual([{ partition: a.partition, offset: 3 }]);
      h.log = await h.reopen!();
      expect(h.log.stats().tornTailTruncations).toBe(0);
      expect((await readAll(h.log, a.partition)).map((r) => r.text)).toEqual(['a', 'b', 'c', 'd']);
    });

    tearable('truncates a complete-looking frame whose CRC does not match', async () => {
      const [a] = await h.log.append('k', [bytes('a')]);
      const bogus = new Uint8Array(16 + 4);
      const view = new DataView(bogus.buffer);
      view.setUint32(0, 4, true);
      view.setUint32(4, 0xdeadbeef, true);
      view.setBigUint64(8, 1n, true);
      h.log = await h.tearTail!(bogus);
      expect(h.log.stats().tornTailTruncations).toBe(1);
      expect((await readAll(h.log, a.partition)).map((r) => r.text)).toEqual(['a']);
    });

    it('declares the capabilities it lacks the way its harness does', () => {
      // A trait the harness could test must not be declared missing (that would hide its cases).
      expect({
        diskFaults: h.failNextSync !== undefined && h.setDiskFull !== undefined,
        persistent: h.reopen !== undefined,
        tornTails: h.tearTail !== undefined,
      }).toEqual({
        diskFaults: traits.diskFaults ?? false,
        persistent: traits.persistent ?? false,
        tornTails: traits.tornTails ?? false,
      });
      if (notApplicable.length > 0)
        process.stdout.write(`IngestLog contract: ${name} does not apply: ${notApplicable.join('; ')}\n`);
    });
  });
}
