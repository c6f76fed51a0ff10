import { renderMpl } from './render';
import type { MplResult } from './result';

const result: MplResult = {
  series: [
    {
      metric: 'm',
      tags: { host: 'a', cores: 4, load: 0.5, canary: true, gone: null },
      start: 60,
      resolution: 60,
      data: Float64Array.from([1, NaN, Infinity, 2.5, NaN]),
    },
    { metric: 'm', tags: {}, start: 0, resolution: 10, data: Float64Array.from([NaN]) },
  ],
  groupKeys: ['host'],
  customUnit: 'ms',
  warnings: ['w'],
  stats: { pointsRead: 3, seriesReturned: 2 },
};

describe('renderMpl', () => {
  it('metrics-v1 is a bare array; non-finite values are null; tag values keep their JSON type', () => {
    expect(renderMpl(result, 'metrics-v1')).toEqual([
      {
        metric: 'm',
        tags: { host: 'a', cores: 4, load: 0.5, canary: true, gone: null },
        start: 60,
        resolution: 60,
        data: [1, null, null, 2.5, null],
      },
      { metric: 'm', tags: {}, start: 0, resolution: 10, data: [null] },
    ]);
  });

  it('metrics-v2 adds metadata and a per-series summary (last value)', () => {
    const v2 = renderMpl(result, 'metrics-v2') as { metadata: unknown; series: { summary: number | null }[] };
    expect(v2.metadata).toEqual({
      group_keys: ['host'],
      warnings: ['w'],
      unit: '',
      custom_unit: 'ms',
      ignore_unit: false,
    });
    expect(v2.series.map((s) => s.summary)).toEqual([2.5, null]);
  });

  it('metrics-v3 is v2 without summary', () => {
    const v3 = renderMpl(result, 'metrics-v3') as { series: object[] };
    expect(v3.series[0]).not.toHaveProperty('summary');
    expect(JSON.parse(JSON.stringify(v3))).toHaveProperty('metadata.custom_unit', 'ms');
  });
});
