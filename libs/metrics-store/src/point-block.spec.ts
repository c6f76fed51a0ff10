import fc from 'fast-check';
import {
  decodeBlockSeries,
  decodePointBlock,
  encodePointBlock,
  indexPointBlock,
  type BlockSeries,
} from './point-block';

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

  it('indexes the series bodies so one series decodes alone', () => {
    const histogram: BlockSeries = {
      id: 'h',
      tags: {},
      kind: 'histogram',
      times: [5, 6],
      points: [5, 6].map((time) => ({
        time,
        count: 1,
        sum: 2,
        min: 2,
        max: 2,
        bounds: [1, 10],
        counts: [0, 1, 0],
      })),
    };
    const scalar = (id: string, n: number): BlockSeries => ({
      id,
      tags: { id: { type: 'string', value: id } },
      kind: 'scalar',
      times: Array.from({ length: n }, (_, i) => 1000 + i * 300),
      values: Array.from({ length: n }, (_, i) => i / 3),
    });
    const series = [scalar('a', 200), histogram, scalar('c', 3)];
    const bytes = encodePointBlock('m', series);
    const index = indexPointBlock(bytes);
    expect(index.series.map((e) => [e.id, e.kind, e.n])).toEqual([
      ['a', 'scalar', 200],
      ['h', 'histogram', 2],
      ['c', 'scalar', 3],
    ]);
    expect(index.series.map((e) => decodeBlockSeries(bytes, e))).toEqual(series);
    expect(decodeBlockSeries(bytes, index.series[2])).toEqual(series[2]);
    expect(() => indexPointBlock(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
  });

  it('rejects bytes that are not a block', () => {
    expect(() => decodePointBlock(new Uint8Array([1, 2, 3, 4, 0, 0, 0, 0]))).toThrow(/bad magic/);
  });
});
