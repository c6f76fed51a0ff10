import type { ResultTable } from '@quarry/contracts';
import { GroupIds, aplGroupLayout, legacyGroupLayout, matchesOf, seriesOf, totalsOf } from './legacy-entries';

const table = (fields: string[], rows: unknown[][], groups: string[] = []): ResultTable => ({
  name: '0',
  sources: [{ name: 'ds' }],
  fields: fields.map((name) => ({ name, type: 'string' })),
  order: [],
  groups: groups.map((name) => ({ name })),
  columns: fields.map((_, c) => rows.map((r) => r[c])),
});

describe('legacy entries', () => {
  it('lifts _time and _sysTime out of data and derives the same row id for the same row', () => {
    const t = table(
      ['_sysTime', '_time', 'a'],
      [
        ['2024-05-01T00:00:01Z', '2024-05-01T00:00:00.0000015Z', 1],
        ['2024-05-01T00:00:01Z', '2024-05-01T00:00:00Z', 2],
      ],
    );
    const [first, second] = matchesOf(t);
    expect(first).toMatchObject({
      _time: '2024-05-01T00:00:00.0000015Z',
      _sysTime: '2024-05-01T00:00:01Z',
      data: { a: 1 },
    });
    expect(first._rowId).toBe(matchesOf(t)[0]._rowId);
    expect(first._rowId).not.toBe(second._rowId);
    // Ids sort like _time, to the µs.
    expect(second._rowId < first._rowId).toBe(true);
  });

  it('fills every interval of the window and keeps group ids shared with totals', () => {
    const ids = new GroupIds();
    const totals = totalsOf(
      table(
        ['host', 'n'],
        [
          ['b', 3],
          ['a', 1],
        ],
        ['host'],
      ),
      legacyGroupLayout(1, [{ label: 'n', width: 1 }], false),
      ids,
    );
    expect(totals).toEqual([
      { id: 0, group: { host: 'b' }, aggregations: [{ op: 'n', value: 3 }] },
      { id: 1, group: { host: 'a' }, aggregations: [{ op: 'n', value: 1 }] },
    ]);
    const bucketed = table(
      ['_time', 'host', 'n'],
      [
        ['2024-05-01T00:10:00Z', 'a', 1],
        ['2024-05-01T00:00:00Z', 'b', 3],
      ],
      ['_time', 'host'],
    );
    const window = { startMs: Date.parse('2024-05-01T00:00:00Z'), endMs: Date.parse('2024-05-01T00:30:00Z') };
    const bucket = { column: 0, sizeMs: 600_000 };
    const series = seriesOf(bucketed, aplGroupLayout(bucketed, 0), ids, bucket, window);
    expect(series).toEqual([
      {
        startTime: '2024-05-01T00:00:00Z',
        endTime: '2024-05-01T00:10:00Z',
        groups: [{ id: 0, group: { host: 'b' }, aggregations: [{ op: 'n', value: 3 }] }],
      },
      {
        startTime: '2024-05-01T00:10:00Z',
        endTime: '2024-05-01T00:20:00Z',
        groups: [{ id: 1, group: { host: 'a' }, aggregations: [{ op: 'n', value: 1 }] }],
      },
      { startTime: '2024-05-01T00:20:00Z', endTime: '2024-05-01T00:30:00Z', groups: [] },
    ]);
    // Without a window to fill, only intervals with rows.
    expect(seriesOf(bucketed, aplGroupLayout(bucketed, 0), ids, bucket)).toHaveLength(2);
  });

  it('finds APL group keys by name, wherever a later project put them', () => {
    const t = table(['n', 'host'], [[3, 'a']], ['host']);
    expect(totalsOf(t, aplGroupLayout(t), new GroupIds())).toEqual([
      { id: 0, group: { host: 'a' }, aggregations: [{ op: 'n', value: 3 }] },
    ]);
  });
});
