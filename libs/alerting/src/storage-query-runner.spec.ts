import { rowsOfSeries, rowsOfTable } from './storage-query-runner';

describe('query results as rows', () => {
  it('reads an APL table; its by-columns except the time bin are the groups', () => {
    const result = rowsOfTable({
      name: '0',
      sources: [{ name: 'logs' }],
      fields: [
        { name: '_time', type: 'datetime' },
        { name: 'host', type: 'string' },
        { name: 'count_', type: 'integer' },
      ],
      order: [],
      groups: [{ name: '_time' }, { name: 'host' }],
      buckets: { field: '_time', size: 60e9 },
      columns: [
        ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00Z'],
        ['a', 'b'],
        [3, 4],
      ],
    });
    expect(result).toEqual({
      rows: [
        { _time: '2024-05-01T12:00:00Z', host: 'a', count_: 3 },
        { _time: '2024-05-01T12:00:00Z', host: 'b', count_: 4 },
      ],
      groupFields: ['host'],
    });
    expect(rowsOfTable(undefined)).toEqual({ rows: [], groupFields: [] });
  });

  it('reads MPL series as one row per point, skipping gaps; tags are the groups', () => {
    const result = rowsOfSeries({
      series: [
        {
          metric: 'load',
          tags: { host: 'a' },
          start: 1_714_564_800,
          resolution: 60,
          data: new Float64Array([1, NaN, 3]),
        },
      ],
      groupKeys: ['host'],
      warnings: [],
      stats: { pointsRead: 3, seriesReturned: 1 },
    });
    expect(result).toEqual({
      rows: [
        { host: 'a', _time: '2024-05-01T12:00:00.000Z', value: 1 },
        { host: 'a', _time: '2024-05-01T12:02:00.000Z', value: 3 },
      ],
      groupFields: ['host'],
    });
  });
});
