import fc from 'fast-check';
import { decodePointBlock, encodePointBlock, type BlockSeries } from './point-block';

describe('point blocks (QMB1)', () => {
  it('round-trips scalar and histogram series, including gaps and absent min/max', () => {
    const series: BlockSeries[] = [
      {
        id: 'a',
        tags: { host: { type: 'string', value: 'h' } },
        kind: 'scalar',
        times: [10, 20, 35],
        values: [1.5, NaN, -3],
      },
      {
        id: 'b',
        tags: { cores: { type: 'int', value: 4 }, canary: { type: 'bool', value: true } },
        kind: 'histogram',
        times: [100, 110],
        points: [
          { time: 100, count: 3, sum: 0.7, min: null, max: null, bounds: [0.1, 1], counts: [1, 2, 0] },
          { time: 110, count: 0, sum: 0, min: 0.05, max: 2, bounds: [0.1, 1], counts: [0, 0, 0] },
        ],
      },
    ];
    const decoded = decodePointBlock(encodePointBlock('m', series));
    expect(decoded.metric).toBe('m');
    expect(decoded.series).toEqual(series);
  });

  it('round-trips any sorted times (delta-encoded) and float64 values exactly', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 4_000_000_000 }), { maxLength: 50 }),
        fc.array(fc.double(), { minLength: 50, maxLength: 50 }),
        (times, values) => {
          const sorted = [...times].sort((a, b) => a - b);
          const series: BlockSeries = {
            id: 's',
            tags: {},
            kind: 'scalar',
            times: sorted,
            values: values.slice(0, sorted.length),
          };
          expect(decodePointBlock(encodePointBlock('x', [series])).series).toEqual([series]);
        },
      ),
    );
  });

  it('stores times compactly: regular 10 s steps take one byte each', () => {
    const times = Array.from({ length: 1000 }, (_, i) => 1_746_057_600 + 10 * i);
    const bytes = encodePointBlock('m', [
      { id: 's', tags: {}, kind: 'scalar', times, values: times.map(() => 1) },
    ]);
    // 8 bytes per value + ~1 byte per time delta + header.
    expect(bytes.byteLength).toBeLessThan(1000 * 9 + 200);
  });

  it('rejects bytes that are not a block', () => {
    expect(() => decodePointBlock(new Uint8Array([1, 2, 3, 4, 0, 0, 0, 0]))).toThrow(/bad magic/);
  });
});
