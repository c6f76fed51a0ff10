import { statusLine, toGrid, toTimeSeries, type AplTable } from './query-result';

const binned: AplTable = {
  name: '0',
  fields: [
    { name: '_time', type: 'datetime' },
    { name: 'method', type: 'string' },
    { name: 'count_', type: 'integer', agg: { name: 'count' } },
  ],
  groups: [{ name: '_time' }, { name: 'method' }],
  buckets: { field: '_time', size: 60e9 },
  columns: [
    ['2026-01-01T00:01:00Z', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
    ['GET', 'GET', 'POST'],
    [3, 1, 2],
  ],
};

describe('APL results for the table and the chart', () => {
  it('makes one series per group over sorted bins, with nulls where a group has no bin', () => {
    const series = toTimeSeries(binned)!;
    const t0 = Date.parse('2026-01-01T00:00:00Z') / 1000;
    expect(series.xs).toEqual([t0, t0 + 60]);
    expect(series.series).toEqual([
      { name: 'GET', values: [1, 3] },
      { name: 'POST', values: [2, null] },
    ]);
  });

  it('is not a time series without bins', () => {
    expect(toTimeSeries({ ...binned, buckets: undefined })).toBeNull();
  });

  it('puts _time first and hides _sysTime in the grid', () => {
    const grid = toGrid({
      name: '0',
      fields: [
        { name: '_sysTime', type: 'datetime' },
        { name: 'a', type: 'string' },
        { name: '_time', type: 'datetime' },
      ],
      columns: [['s'], ['x'], ['t']],
    });
    expect(grid.columns).toEqual(['_time', 'a']);
    expect(grid.values).toEqual([['t'], ['x']]);
    expect(grid.rowCount).toBe(1);
  });

  it('reads the status as rows examined, matched and milliseconds', () => {
    expect(statusLine({ rowsExamined: 200, rowsMatched: 20, elapsedTime: 12_400 })).toBe(
      '200 rows examined · 20 matched · 12 ms',
    );
  });
});
