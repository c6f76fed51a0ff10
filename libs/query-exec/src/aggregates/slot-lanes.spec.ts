import fc from 'fast-check';
import { rowsPerSlot, slotsByFirstRow, sumsPerSlot } from './slot-lanes';

/** Codes of a key with `dictSize` values (-1 is null) and a value per row. */
const rowsOf = (dictSize: number) =>
  fc.array(
    fc.tuple(
      fc.integer({ min: -1, max: dictSize - 1 }),
      fc.integer({ min: -4000, max: 4000 }).map((v) => v / 8),
    ),
    { maxLength: 70 },
  );

describe('per-slot counts and sums in interleaved lanes', () => {
  it('count, sum and first-row order as a row-by-row loop gives them (any length, null codes)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((d) => fc.tuple(fc.constant(d), rowsOf(d))),
        ([dictSize, rows]) => {
          const n = rows.length;
          const codes = Int32Array.from(rows, (r) => r[0]);
          const values = Float64Array.from(rows, (r) => r[1]);
          const nullSlot = dictSize;
          const expectedRows = new Float64Array(nullSlot + 1);
          const expectedSums = new Float64Array(nullSlot + 1);
          const expectedOrder: number[] = [];
          for (let i = 0; i < n; i++) {
            const slot = codes[i] < 0 ? nullSlot : codes[i];
            if (expectedRows[slot]++ === 0) expectedOrder.push(slot);
            expectedSums[slot] += values[i];
          }
          const got = rowsPerSlot(codes, nullSlot, n);
          // Eighths sum exactly in any order, so the lanes' order of addition cannot show.
          expect([...got]).toEqual([...expectedRows]);
          expect([...sumsPerSlot(codes, nullSlot, n, values)]).toEqual([...expectedSums]);
          expect(slotsByFirstRow(codes, nullSlot, n, got)).toEqual(expectedOrder);
        },
      ),
    );
  });

  it('reads only the first n rows of longer arrays', () => {
    const codes = Int32Array.from([0, 1, 1, 0, 1, 2, 2, 2, 2]);
    const values = Float64Array.from([1, 2, 3, 4, 5, 100, 100, 100, 100]);
    expect([...rowsPerSlot(codes, 3, 5)]).toEqual([2, 3, 0, 0]);
    expect([...sumsPerSlot(codes, 3, 5, values)]).toEqual([5, 10, 0, 0]);
    expect(slotsByFirstRow(codes, 3, 5, rowsPerSlot(codes, 3, 5))).toEqual([0, 1]);
  });
});
