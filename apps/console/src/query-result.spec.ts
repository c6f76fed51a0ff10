import { pieArcs, statusLine, toGrid, toSlices, toTimeSeries, type AplTable } from './query-result';

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

describe('slices for pie and top-list elements', () => {
  const grouped: AplTable = {
    name: '0',
    fields: [
      { name: 'status', type: 'integer' },
      { name: 'method', type: 'string' },
      { name: 'count_', type: 'integer', agg: { name: 'count' } },
    ],
    columns: [
      [200, 500, 404, 200],
      ['GET', 'PUT', 'POST', 'DELETE'],
      [5, 1, 3, 2],
    ],
  };

  it('takes the aggregate as the value and the group columns as the label, largest first', () => {
    expect(toSlices(grouped, 10)).toEqual([
      { label: '200 · GET', value: 5 },
      { label: '404 · POST', value: 3 },
      { label: '200 · DELETE', value: 2 },
      { label: '500 · PUT', value: 1 },
    ]);
  });

  it('keeps the top n, summing the rest into Other when asked, and merges equal labels', () => {
    const t: AplTable = {
      name: '0',
      fields: [
        { name: 'host', type: 'string' },
        { name: 'n', type: 'long' },
      ],
      columns: [
        ['a', 'b', 'c', 'a', 'd'],
        [1, 7, 2, 5, 1],
      ],
    };
    expect(toSlices(t, 2)).toEqual([
      { label: 'b', value: 7 },
      { label: 'a', value: 6 },
    ]);
    expect(toSlices(t, 2, true)).toEqual([
      { label: 'b', value: 7 },
      { label: 'a', value: 6 },
      { label: 'Other', value: 3 },
    ]);
    expect(toSlices({ name: '0', fields: [{ name: 's', type: 'string' }], columns: [['x']] }, 5)).toEqual([]);
  });

  it('draws pie arcs whose fractions add up to the whole, and a single slice as a full circle', () => {
    const arcs = pieArcs(
      [
        { label: 'a', value: 3 },
        { label: 'b', value: 1 },
      ],
      50,
    );
    expect(arcs.map((a) => a.fraction)).toEqual([0.75, 0.25]);
    // Starts at 12 o'clock; three quarters clockwise ends at 9 o'clock with the large-arc flag.
    expect(arcs[0]!.d).toBe('M 50 50 L 50 0 A 50 50 0 1 1 0 50 Z');
    expect(arcs[1]!.d).toBe('M 50 50 L 0 50 A 50 50 0 0 1 50 0 Z');
    expect(pieArcs([{ label: 'all', value: 2 }], 10)[0]!.d).toBe(
      'M 10 0 A 10 10 0 1 1 10 20 A 10 10 0 1 1 10 0 Z',
    );
    expect(pieArcs([{ label: 'none', value: 0 }], 10)).toEqual([]);
  });
});
