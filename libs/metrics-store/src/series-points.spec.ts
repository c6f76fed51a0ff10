import fc from 'fast-check';
import type { BlockSeries } from './point-block';
import { mergePieces, normalizeSeries, scalarColumns } from './series-points';

const piece = (points: [number, number][]): BlockSeries =>
  normalizeSeries({
    id: 's',
    tags: {},
    kind: 'scalar',
    times: points.map((p) => p[0]),
    values: points.map((p) => p[1]),
  });

const plain = (cols: { times: Float64Array; values: Float64Array }) =>
  [...cols.times].map((t, i) => [t, cols.values[i]]);

describe('series pieces', () => {
  it('concatenates pieces that follow each other in time', () => {
    const cols = scalarColumns([
      piece([
        [1, 1],
        [2, 2],
      ]),
      piece([[5, 5]]),
    ]);
    expect(cols.times).toBeInstanceOf(Float64Array);
    expect(plain(cols)).toEqual([
      [1, 1],
      [2, 2],
      [5, 5],
    ]);
  });

  it('sorts overlapping pieces, the later piece winning a shared second', () => {
    const cols = scalarColumns([
      piece([
        [1, 1],
        [5, 5],
      ]),
      piece([
        [3, 3],
        [5, 50],
      ]),
    ]);
    expect(plain(cols)).toEqual([
      [1, 1],
      [3, 3],
      [5, 50],
    ]);
  });

  it('is mergePieces as typed arrays, for any pieces', () => {
    const points = fc.array(fc.tuple(fc.integer({ min: 0, max: 50 }), fc.integer()), { minLength: 1 });
    fc.assert(
      fc.property(fc.array(points, { minLength: 1, maxLength: 5 }), (lists) => {
        const pieces = lists.map(piece);
        const merged = mergePieces(pieces);
        if (merged.kind !== 'scalar') throw new Error('scalar');
        expect(plain(scalarColumns(pieces))).toEqual(merged.times.map((t, i) => [t, merged.values[i]]));
      }),
    );
  });

  it('merges pieces larger than the argument limit of a spread call', () => {
    const big = Array.from({ length: 300_000 }, (_, i) => [i, i] as [number, number]);
    const merged = mergePieces([piece(big), piece([[10, -1]])]);
    expect(merged.times).toHaveLength(300_000);
    expect(merged.kind === 'scalar' && merged.values[10]).toBe(-1);
  });
});
