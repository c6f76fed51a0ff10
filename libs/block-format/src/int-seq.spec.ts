import fc from 'fast-check';
import { QuarryError } from '@quarry/common';
import { ByteReader, ByteWriter } from './bytes';
import { type IntSeqMode, intStats, packable, readIntSeq, writeIntSeq } from './int-seq';

function roundTrip(values: number[], search = true): { mode: IntSeqMode; decoded: number[]; bytes: number } {
  const array = Float64Array.from(values);
  const w = new ByteWriter(8);
  const mode = writeIntSeq(w, array, array.length, intStats(array, array.length), { search });
  const bytes = w.finish();
  const r = new ByteReader(bytes, 'test');
  const decoded = [...readIntSeq(r, array.length)];
  expect(r.pos).toBe(bytes.length);
  return { mode, decoded, bytes: bytes.length };
}

const TWO_53 = 2 ** 53;

describe('integer sequences', () => {
  it('round-trip any integers within ±2^53 whose spread fits (property)', () => {
    const shapes = fc.oneof(
      fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 300 }),
      fc.array(fc.maxSafeInteger(), { maxLength: 50 }),
      fc.array(fc.constantFrom(0, 1, -1, TWO_53, TWO_53 - 1, 2 ** 32, 2 ** 32 - 1, 2 ** 31), {
        maxLength: 50,
      }),
      // sorted: delta
      fc
        .array(fc.nat(5000), { maxLength: 300 })
        .map((d) => d.reduce<number[]>((acc, x) => [...acc, (acc.at(-1) ?? 1.7e12) + x], [])),
      // runs: rle
      fc
        .array(fc.tuple(fc.integer({ min: -5, max: 5 }), fc.integer({ min: 1, max: 40 })), { maxLength: 20 })
        .map((runs) => runs.flatMap(([v, len]) => Array(len).fill(v))),
    );
    fc.assert(
      fc.property(shapes, fc.boolean(), (values, search) => {
        const stats = intStats(Float64Array.from(values), values.length);
        fc.pre(packable(stats));
        expect(roundTrip(values, search).decoded).toEqual(values.map((v) => v + 0));
      }),
      { numRuns: 500 },
    );
  });

  it('handles widths above 32 bits up to 53', () => {
    for (const values of [
      [0, TWO_53 - 1],
      [-TWO_53, -1],
      [1, 2 ** 33 + 5, 2 ** 40, 3],
      [-(2 ** 52), 2 ** 52 - 1],
    ]) {
      expect(roundTrip(values).decoded).toEqual(values);
    }
    expect(packable(intStats(Float64Array.of(-TWO_53, TWO_53), 2))).toBe(false);
  });

  it('picks for, delta and rle by size', () => {
    const n = 1000;
    expect(roundTrip(Array.from({ length: n }, (_, i) => (i * 7919) % 1000)).mode).toBe('for');
    const sorted = Array.from({ length: n }, (_, i) => 1.7e12 + i * 1000 + (i % 3));
    expect(roundTrip(sorted)).toMatchObject({ mode: 'delta', decoded: sorted });
    const runs = Array.from({ length: n }, (_, i) => Math.floor(i / 100) * 123456);
    expect(roundTrip(runs)).toMatchObject({ mode: 'rle', decoded: runs });
    expect(roundTrip(runs, false).mode).toBe('for');
    // A constant is width 0: a header and nothing per value.
    expect(roundTrip(Array(n).fill(42))).toMatchObject({ mode: 'for', bytes: 10 });
    expect(roundTrip([])).toMatchObject({ mode: 'for', decoded: [] });
  });

  it('rejects corrupt sequences with block_corrupt', () => {
    const w = new ByteWriter(8);
    const runs = Float64Array.from({ length: 100 }, (_, i) => Math.floor(i / 25) * 1000);
    expect(writeIntSeq(w, runs, 100)).toBe('rle');
    const bytes = w.finish();
    for (const [at, value] of [
      [0, 7], // unknown mode
      [1, 200], // run count past n
    ]) {
      const copy = bytes.slice();
      copy[at] = value;
      expect(() => readIntSeq(new ByteReader(copy, 'test'), 100)).toThrow(QuarryError);
    }
    expect(() => readIntSeq(new ByteReader(bytes, 'test'), 99)).toThrow(/corrupt block: test has/);
    expect(() => readIntSeq(new ByteReader(bytes.subarray(0, 5), 'test'), 100)).toThrow(/ends early/);
  });
});
