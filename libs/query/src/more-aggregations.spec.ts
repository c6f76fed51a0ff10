/** topk(if), histogram(if), rate, make_bag through the facade; expected values worked out by hand. */
import { runApl, type RunAplOptions } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const events = [
  { _time: '2024-05-01T00:00:00Z', ip: 'a', bytes: 10, status: 200 },
  { _time: '2024-05-01T00:10:00Z', ip: 'b', bytes: 20, status: 200 },
  { _time: '2024-05-01T00:20:00Z', ip: 'a', bytes: 30, status: 500 },
  { _time: '2024-05-01T00:40:00Z', ip: 'a', bytes: 40, status: 200 },
  { _time: '2024-05-01T01:05:00Z', ip: 'c', bytes: 50, status: 404 },
  { _time: '2024-05-01T01:30:00Z', ip: 'b', bytes: 60, status: 200 },
  // Outside the query window: ignored.
  { _time: '2024-05-02T00:00:00Z', ip: 'z', bytes: 1000, status: 200 },
];
const opts: RunAplOptions = {
  startMs: Date.UTC(2024, 4, 1),
  endMs: Date.UTC(2024, 4, 2),
  nowMs: Date.UTC(2024, 4, 2),
  // Batches of 2: every aggregate sees several updates.
  catalog: new MemoryCatalog({ ds: events }, { batchSize: 2 }),
};

async function run(q: string) {
  const out = await runApl(q, opts);
  const t = out.tables[0];
  const rows = Array.from({ length: t.columns[0]?.length ?? 0 }, (_, i) =>
    Object.fromEntries(t.fields.map((f, j) => [f.name, t.columns[j][i]])),
  );
  return { table: t, rows };
}

const byTime = (rows: Record<string, unknown>[]) =>
  [...rows].sort((x, y) => String(x._time).localeCompare(String(y._time)));

describe('topk / topkif', () => {
  it('topk(ip, 2): [{key, count, error}] by count desc, column topk_ip, agg on the wire', async () => {
    const { table, rows } = await run('ds | summarize topk(ip, 2)');
    expect(rows).toEqual([
      {
        topk_ip: [
          { key: 'a', count: 3, error: 0 },
          { key: 'b', count: 2, error: 0 },
        ],
      },
    ]);
    expect(table.fields[0].agg).toEqual({ name: 'topk', fields: ['ip'], args: [2] });
  });

  it('topkif counts only matching rows; ties by key', async () => {
    const { table, rows } = await run('ds | summarize topkif(ip, 5, status == 200)');
    expect(rows).toEqual([
      {
        topkif_ip: [
          { key: 'a', count: 2, error: 0 },
          { key: 'b', count: 2, error: 0 },
        ],
      },
    ]);
    expect(table.fields[0].agg).toMatchObject({ name: 'topkif', args: [5] });
  });

  it('per time bucket, numbers as keys', async () => {
    const { rows } = await run('ds | summarize top = topk(status, 1) by bin(_time, 1h)');
    expect(byTime(rows)).toEqual([
      { _time: '2024-05-01T00:00:00Z', top: [{ key: 200, count: 3, error: 0 }] },
      { _time: '2024-05-01T01:00:00Z', top: [{ key: 200, count: 1, error: 0 }] },
    ]);
  });

  it('rejects a non-constant or non-positive k', async () => {
    await expect(run('ds | summarize topk(ip, 0)')).rejects.toMatchObject({ code: 'apl_invalid_argument' });
    await expect(run('ds | summarize topk(ip, bytes)')).rejects.toMatchObject({
      code: 'apl_invalid_argument',
    });
    await expect(run('ds | summarize topk(ip)')).rejects.toMatchObject({ code: 'apl_wrong_arity' });
  });
});

describe('histogram / histogramif', () => {
  it('nbins equal-width bins over [min, max] as [{lower, upper, count}]', async () => {
    // bytes 10..60, 5 bins of width 10; the last bin [50, 60] includes the max.
    const { table, rows } = await run('ds | summarize histogram(bytes, 5)');
    expect(rows).toEqual([
      {
        histogram_bytes: [
          { lower: 10, upper: 20, count: 1 },
          { lower: 20, upper: 30, count: 1 },
          { lower: 30, upper: 40, count: 1 },
          { lower: 40, upper: 50, count: 1 },
          { lower: 50, upper: 60, count: 2 },
        ],
      },
    ]);
    expect(table.fields[0].agg).toEqual({ name: 'histogram', fields: ['bytes'], args: [5] });
  });

  it('histogramif, grouped', async () => {
    // status 200 rows: a has bytes 10, 40 (width 15), b has 20, 60 (width 20), c has none → [].
    const { rows } = await run(
      'ds | summarize h = histogramif(bytes, 2, status == 200) by ip | sort by ip asc',
    );
    expect(rows).toEqual([
      {
        ip: 'a',
        h: [
          { lower: 10, upper: 25, count: 1 },
          { lower: 25, upper: 40, count: 1 },
        ],
      },
      {
        ip: 'b',
        h: [
          { lower: 20, upper: 40, count: 1 },
          { lower: 40, upper: 60, count: 1 },
        ],
      },
      { ip: 'c', h: [] },
    ]);
  });
});

describe('rate', () => {
  it('per second of the bin(_time, …) bucket', async () => {
    const { table, rows } = await run('ds | summarize rate(bytes) by bin(_time, 30m)');
    expect(byTime(rows)).toEqual([
      { _time: '2024-05-01T00:00:00Z', rate_bytes: 60 / 1800 },
      { _time: '2024-05-01T00:30:00Z', rate_bytes: 40 / 1800 },
      { _time: '2024-05-01T01:00:00Z', rate_bytes: 50 / 1800 },
      { _time: '2024-05-01T01:30:00Z', rate_bytes: 60 / 1800 },
    ]);
    expect(table.fields[1]).toMatchObject({
      name: 'rate_bytes',
      type: 'float',
      agg: { name: 'rate', args: [] },
    });
  });

  it('per second of the query window without a time bucket', async () => {
    const { rows } = await run('ds | summarize rate(bytes) by ip | sort by ip asc');
    expect(rows).toEqual([
      { ip: 'a', rate_bytes: 80 / 86400 },
      { ip: 'b', rate_bytes: 80 / 86400 },
      { ip: 'c', rate_bytes: 50 / 86400 },
    ]);
  });

  it('in make-series: per second of one step', async () => {
    const { rows } = await run(
      'ds | make-series r = rate(bytes) default = 0 on _time from datetime(2024-05-01) to datetime(2024-05-01T02:00:00Z) step 1h',
    );
    expect(rows[0].r).toEqual([100 / 3600, 110 / 3600]);
  });
});

describe('make_bag', () => {
  it('merges the bags of a group (column make_bag_kv); max caps the keys', async () => {
    const { table, rows } = await run(
      'ds | extend kv = bag_pack(ip, status) | summarize make_bag(kv), first = make_bag(kv, 1) by status | sort by status asc',
    );
    expect(table.fields.map((f) => f.name)).toEqual(['status', 'make_bag_kv', 'first']);
    expect(rows.map((r) => [r.status, r.make_bag_kv])).toEqual([
      [200, { a: 200, b: 200 }],
      [404, { c: 404 }],
      [500, { a: 500 }],
    ]);
    expect(rows.map((r) => Object.keys(r.first as object).length)).toEqual([1, 1, 1]);
  });

  it('keeps the first value of a repeated key and skips non-bags', async () => {
    const { rows } = await run(
      'ds | where ip == "a" | sort by _time asc | extend kv = iff(status == 500, dynamic(null), bag_pack("s", status, "b", bytes)) | summarize make_bag(kv)',
    );
    // Rows in time order: (200, 10), (500 → null, skipped), (200, 40): the first row's bytes win.
    expect(rows).toEqual([{ make_bag_kv: { s: 200, b: 10 } }]);
  });
});
