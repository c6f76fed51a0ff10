/**
 * The Kusto aggregations and window function Quarry adds, through the facade (binding, names, types,
 * execution over batches): take_any/any, percentiles, percentilew/percentilesw(_array), stdevp/variancep,
 * make_list_with_nulls, make_bag_if, row_window_session; and treepath, bag_zip.
 */
import { runApl, type RunAplOptions } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';
import { splittingOffload } from './testing/splitting-offload';

const events = [
  { _time: '2024-05-01T00:00:00Z', ip: 'a', bytes: 10, n: 1 },
  { _time: '2024-05-01T00:10:00Z', ip: 'b', bytes: 20, n: 2 },
  { _time: '2024-05-01T00:20:00Z', ip: 'a', bytes: 30, n: 3 },
  { _time: '2024-05-01T00:40:00Z', ip: 'a', bytes: 40 },
  { _time: '2024-05-01T01:05:00Z', ip: 'c', bytes: 50, n: 5 },
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
  return { names: t.fields.map((f) => f.name), rows };
}

describe('Kusto aggregations through the facade', () => {
  it('percentiles(x, p…): a column per rank named percentile_x_p', async () => {
    const { names, rows } = await run('ds | summarize percentiles(bytes, 0, 50, 99.9)');
    expect(names).toEqual(['percentile_bytes_0', 'percentile_bytes_50', 'percentile_bytes_99_9']);
    expect(rows).toEqual([{ percentile_bytes_0: 10, percentile_bytes_50: 30, percentile_bytes_99_9: 50 }]);
  });

  it('percentilew / percentilesw / percentilesw_array with a weight column', async () => {
    const { names, rows } = await run(
      'ds | summarize percentilew(bytes, n, 50), percentilesw(bytes, n, 10, 90), percentilesw_array(bytes, n, 50)',
    );
    // Weights: 10×1, 20×2, 30×3, 40×1 (null weight counts once), 50×5: total 12.
    expect(names).toEqual([
      'percentile_bytes_50',
      'percentile_bytes_10',
      'percentile_bytes_90',
      'percentilesw_bytes',
    ]);
    expect(rows).toEqual([
      { percentile_bytes_50: 30, percentile_bytes_10: 20, percentile_bytes_90: 50, percentilesw_bytes: [30] },
    ]);
  });

  it('take_any(x) is named x, any(x) any_x, take_any(*) every non-key column; take_anyif/anyif', async () => {
    const one = await run('ds | sort by _time asc | summarize take_any(n), any(ip) by ip');
    expect(one.names).toEqual(['ip', 'n', 'any_ip']);
    const byIp = Object.fromEntries(one.rows.map((r) => [r.ip, r]));
    expect(byIp.a).toEqual({ ip: 'a', n: 1, any_ip: 'a' });
    const cond = await run(
      'ds | sort by _time asc | summarize take_anyif(bytes, bytes > 20), anyif(ip, bytes > 100)',
    );
    expect(cond.names).toEqual(['bytes', 'any_ip']);
    expect(cond.rows).toEqual([{ bytes: 30, any_ip: null }]);
    const star = await run('ds | project ip, bytes | summarize take_any(*) by ip | sort by ip asc');
    expect(star.names).toEqual(['ip', 'bytes']);
    expect(star.rows.map((r) => r.ip)).toEqual(['a', 'b', 'c']);
  });

  it('stdevp, variancep(if), make_list_with_nulls, make_bag_if', async () => {
    const { rows } = await run(
      'ds | sort by _time asc | summarize stdevp(bytes), variancepif(bytes, bytes > 10), make_list_with_nulls(n), make_bag_if(bag_pack(ip, bytes), bytes > 20)',
    );
    expect(rows[0].stdevp_bytes as number).toBeCloseTo(Math.sqrt(200), 9);
    expect(rows[0].variancepif_bytes as number).toBeCloseTo(125, 9);
    expect(rows[0].make_list_with_nulls_n).toEqual([1, 2, 3, null, 5]);
    expect(rows[0].make_bag_if_).toEqual({ a: 30, c: 50 });
  });

  it('rejects a star where it has no meaning, a non-numeric weight, several result columns in make-series', async () => {
    await expect(run('ds | summarize take_any(ip, *)')).rejects.toThrow();
    await expect(run('ds | summarize percentilew(bytes, ip, 50)')).rejects.toThrow();
    await expect(run('ds | make-series percentiles(bytes, 50, 90) on _time step 1h')).rejects.toThrow(
      /one result column/,
    );
    const single = await run('ds | make-series percentiles(bytes, 50) on _time step 1d');
    expect(single.names).toEqual(['percentile_bytes_50', '_time']);
  });
});

/** A value with numbers rounded to 9 digits and bag keys sorted (a bag's key order carries no meaning). */
function normalized(v: unknown): unknown {
  if (typeof v === 'number') return Number(v.toPrecision(9));
  if (Array.isArray(v)) return v.map(normalized);
  if (v !== null && typeof v === 'object')
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, normalized((v as Record<string, unknown>)[k])]),
    );
  return v;
}

describe('Kusto aggregations split as worker threads split them', () => {
  it.each([
    'ds | summarize make_list_with_nulls(n) by ip | extend make_list_with_nulls_n = array_sort_asc(make_list_with_nulls_n)',
    'ds | summarize percentiles(bytes, 10, 50, 90), percentilesw(bytes, n, 25, 75), percentilew(bytes, n, 50) by ip',
    'ds | summarize percentilesw_array(bytes, n, 50), stdevp(bytes), variancepif(bytes, bytes > 10) by ip',
    'ds | summarize make_bag_if(bag_pack(ip, bytes), bytes > 10), stdevpif(bytes, bytes > 10)',
  ])('%s', async (q) => {
    const offload = splittingOffload();
    const whole = await run(q);
    const out = await runApl(q, { ...opts, offload });
    const t = out.tables[0];
    const rows = Array.from({ length: t.columns[0]?.length ?? 0 }, (_, i) =>
      Object.fromEntries(t.fields.map((f, j) => [f.name, t.columns[j][i]])),
    );
    expect(offload.splits).toBeGreaterThan(0);
    const key = (r: Record<string, unknown>) => JSON.stringify(normalized(r));
    expect(rows.map(key).sort()).toEqual(whole.rows.map(key).sort());
  });

  it('take_any split: a value of the group, null only when the group has no other', async () => {
    const offload = splittingOffload();
    const out = await runApl('ds | summarize take_any(n), any(bytes) by ip', { ...opts, offload });
    expect(offload.splits).toBeGreaterThan(0);
    const t = out.tables[0];
    const got = Object.fromEntries(
      t.columns[0].map((ip, i) => [ip as string, [t.columns[1][i], t.columns[2][i]]]),
    );
    expect([1, 3]).toContain(got.a[0]);
    expect([10, 30, 40]).toContain(got.a[1]);
    expect(got.b).toEqual([2, 20]);
    expect(got.c).toEqual([5, 50]);
  });
});

describe('row_window_session, treepath, bag_zip', () => {
  it('row_window_session groups rows into sessions and needs a bool restart', async () => {
    const { rows } = await run(
      'ds | sort by _time asc | extend s = row_window_session(_time, 30m, 15m) | project _time, s',
    );
    expect(rows.map((r) => r.s)).toEqual([
      '2024-05-01T00:00:00Z',
      '2024-05-01T00:00:00Z',
      '2024-05-01T00:00:00Z',
      '2024-05-01T00:40:00Z',
      '2024-05-01T01:05:00Z',
    ]);
    await expect(
      run('ds | sort by _time asc | extend s = row_window_session(_time, 1h, 5m, 3)'),
    ).rejects.toThrow(/restart/);
  });

  it('treepath lists node paths, arrays as [0]; bag_zip of a non-array values maps every key to null', async () => {
    const { rows } = await run(
      `print t = treepath(dynamic({"a":[{"b":1},{"c":[2]}],"d":{}})), z = bag_zip(dynamic(["k", 1, "m"]), "v"), nz = treepath("s")`,
    );
    expect(rows[0].t).toEqual([
      "['a']",
      "['a'][0]",
      "['a'][0]['b']",
      "['a'][0]['c']",
      "['a'][0]['c'][0]",
      "['d']",
    ]);
    expect(rows[0].z).toEqual({ k: null, m: null });
    expect(rows[0].nz).toBeNull();
  });
});
