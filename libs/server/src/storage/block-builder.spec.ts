import { decodeBlock } from '@quarry/block-format';
import { batchFromEvents, valueAt, type NormalizedEvent } from '@quarry/contracts';
import { buildBlocks, buildBlocksFromRecords, spanOf } from './block-builder';
import { encodeLogRecord } from './log-codec';

const HOUR = 3_600_000;
const events = (times: number[]): NormalizedEvent[] => times.map((time, i) => ({ time, fields: { i } }));
const timesOf = (bytes: Uint8Array) => {
  const batch = decodeBlock(bytes);
  const time = batch.columns.get('_time')!;
  return Array.from({ length: batch.length }, (_, r) => valueAt(time, r) as number);
};

describe('buildBlocks', () => {
  it('cuts sorted rows at span boundaries and gathers the rows of sparse spans in one more block', () => {
    // 6 rows in hour 0, 5 in hour 2, 1 in hour 5, 2 in hour 9; out of order across two records.
    const first = events([2 * HOUR + 5, 10, 20, 30, 9 * HOUR, 2 * HOUR + 1, 40]);
    const second = events([50, 2 * HOUR + 2, 5 * HOUR, 60, 2 * HOUR + 3, 9 * HOUR + 1, 2 * HOUR + 4]);
    const built = buildBlocks([batchFromEvents(first, 1), batchFromEvents(second, 2)], {
      spanMs: HOUR,
      minSpanRows: 4,
    });
    expect(built.map((b) => timesOf(b.bytes))).toEqual([
      [10, 20, 30, 40, 50, 60],
      [2 * HOUR + 1, 2 * HOUR + 2, 2 * HOUR + 3, 2 * HOUR + 4, 2 * HOUR + 5],
      [5 * HOUR, 9 * HOUR, 9 * HOUR + 1],
    ]);
    expect(built.map((b) => [b.rowCount, b.minTime, b.maxTime])).toEqual([
      [6, 10, 60],
      [5, 2 * HOUR + 1, 2 * HOUR + 5],
      [3, 5 * HOUR, 9 * HOUR + 1],
    ]);
    expect(built.slice(0, 2).every((b) => spanOf(b.minTime, HOUR) === spanOf(b.maxTime, HOUR))).toBe(true);
  });

  it('keeps one block when the rows lie in one span or no span is worth its own block', () => {
    expect(
      buildBlocks([batchFromEvents(events([1, 2, 3]), 1)], { spanMs: HOUR, minSpanRows: 10 }),
    ).toHaveLength(1);
    expect(
      buildBlocks([batchFromEvents(events([1, HOUR + 1, 2 * HOUR + 1]), 1)], {
        spanMs: HOUR,
        minSpanRows: 2,
      }),
    ).toHaveLength(1);
  });

  it('gives blocks that keep their strings when the next build reuses the dictionary buffers', () => {
    // Records read from the log keep strings as UTF-8, so their flush concatenates dictionaries into the
    // buffers reused from one build to the next: a block that still pointed into them would change.
    const record = (tag: string, rows: number) =>
      encodeLogRecord({
        datasetId: 'd',
        sysTime: 1,
        batch: batchFromEvents(
          Array.from({ length: rows }, (_, i) => ({
            time: i,
            fields: { msg: `${tag}-${i}-${'x'.repeat(i % 50)}` },
          })),
          1,
        ),
      });
    const messages = (bytes: Uint8Array) => {
      const batch = decodeBlock(bytes);
      const msg = batch.columns.get('msg')!;
      return Array.from({ length: batch.length }, (_, r) => valueAt(msg, r));
    };
    const policy = { spanMs: HOUR, minSpanRows: 1 };
    const first = buildBlocksFromRecords([record('a', 300), record('b', 200)], policy);
    const expected = first.map((b) => messages(b.bytes));
    expect(expected.flat()).toContain('b-199-' + 'x'.repeat(199 % 50));
    const second = buildBlocksFromRecords([record('c', 250), record('d', 250)], policy);
    expect(first.map((b) => messages(b.bytes))).toEqual(expected);
    expect(second.flatMap((b) => messages(b.bytes)).filter((m) => String(m).startsWith('d-'))).toHaveLength(
      250,
    );
  });
});
