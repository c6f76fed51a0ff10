import { QuarryError } from '@quarry/common';
import { referencedDatasets, runApl, validateApl, type RunAplOptions } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const events = [
  { _time: '2024-05-01T00:00:00Z', b: 1, a: 'x', geo: { city: 'Paris' } },
  { _time: '2024-05-01T01:00:00Z', b: 2, a: 'y' },
  { _time: '2024-05-01T02:00:00Z', b: 3, a: 'x', geo: { city: 'Rome' } },
  { _time: '2024-05-01T03:00:00Z', b: 4.5, a: null },
  { _time: '2024-05-02T00:00:00Z', b: 5, a: 'z' },
];
const catalog = new MemoryCatalog(
  { ds: events, other: [{ _time: '2024-05-01T00:30:00Z', a: 'x', w: 10 }] },
  { batchSize: 2 },
);
const opts: RunAplOptions = {
  startMs: Date.UTC(2024, 4, 1),
  endMs: Date.UTC(2024, 4, 2),
  nowMs: Date.UTC(2024, 4, 2),
  catalog,
};

const rows = (out: Awaited<ReturnType<typeof runApl>>) => {
  const t = out.tables[0];
  return Array.from({ length: t.columns[0]?.length ?? 0 }, (_, i) => t.columns.map((c) => c[i]));
};

describe('runApl', () => {
  it('returns raw rows newest first, system fields then user fields alphabetically, within [start, end)', async () => {
    const out = await runApl('ds | extend z2 = b * 2, a2 = a', opts);
    const t = out.tables[0];
    expect(t.fields.map((f) => f.name)).toEqual(['_sysTime', '_time', 'a', 'b', 'geo.city', 'z2', 'a2']);
    expect(t.fields.find((f) => f.name === '_time')!.type).toBe('datetime');
    expect(t.columns[1]).toEqual([
      '2024-05-01T03:00:00Z',
      '2024-05-01T02:00:00Z',
      '2024-05-01T01:00:00Z',
      '2024-05-01T00:00:00Z',
    ]);
    expect(t.order).toEqual([{ field: '_time', desc: true }]);
    expect(out.aggregated).toBe(false);
    expect(out.datasetNames).toEqual(['ds']);
    expect(out.stats).toMatchObject({ rowsExamined: 4, rowsMatched: 4 });
  });

  it('caps raw results at defaultLimit unless the query sets a limit', async () => {
    expect(rows(await runApl('ds', { ...opts, defaultLimit: 2 }))).toHaveLength(2);
    expect(rows(await runApl('ds | take 3', { ...opts, defaultLimit: 2 }))).toHaveLength(3);
    const matched = await runApl('ds | where b > 1', { ...opts, defaultLimit: 1 });
    expect(matched.stats.rowsMatched).toBe(3);
  });

  it('marks aggregated results and fills groups, agg and numGroups', async () => {
    const out = await runApl('ds | summarize n = count(), s = sum(b) by a', opts);
    expect(out.aggregated).toBe(true);
    expect(out.stats.numGroups).toBe(3);
    expect(out.tables[0].groups).toEqual([{ name: 'a' }]);
    expect(out.tables[0].fields[1]).toMatchObject({ name: 'n', type: 'integer', agg: { name: 'count' } });
    expect(rows(out)).toEqual(
      expect.arrayContaining([
        ['x', 2, 4],
        ['y', 1, 2],
        [null, 1, 4.5],
      ]),
    );
  });

  it('reports time buckets', async () => {
    const out = await runApl('ds | summarize count() by bin(_time, 1h)', opts);
    expect(out.tables[0].buckets).toEqual({ field: '_time', size: 3_600_000_000_000 });
  });

  it('renders NaN/Infinity as null and datetimes as RFC 3339', async () => {
    expect(
      rows(await runApl('print a = 1.0 / 0, b = datetime(2024-05-01T10:20:30.5Z), c = 0.0 / 0', opts)),
    ).toEqual([[null, '2024-05-01T10:20:30.5Z', null]]);
  });

  it('joins datasets and reports every dataset', async () => {
    const out = await runApl('ds | join kind=inner (other) on a | project b, w', opts);
    expect(rows(out)).toEqual(
      expect.arrayContaining([
        [1, 10],
        [3, 10],
      ]),
    );
    expect(out.datasetNames).toEqual(['ds', 'other']);
  });

  it('rejects unknown datasets with not_found', async () => {
    await expect(runApl('nope | count', opts)).rejects.toMatchObject({
      kind: 'not_found',
      message: 'dataset "nope" not found',
    });
  });

  it('rejects invalid queries with invalid and a span', async () => {
    const err = await runApl('ds | where B > 1', opts).catch((e) => e);
    expect(err).toBeInstanceOf(QuarryError);
    expect(err).toMatchObject({ kind: 'invalid', code: 'apl_unknown_field', span: { line: 1, column: 12 } });
  });

  it('honours an aborted signal', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(runApl('ds | count', { ...opts, signal: ac.signal })).rejects.toMatchObject({
      code: 'query_aborted',
    });
  });
});

describe('validateApl', () => {
  it('accepts valid queries without schemas', () => {
    expect(() => validateApl('anything | where x == 1 | summarize count() by y')).not.toThrow();
  });

  it('rejects syntax and static errors', () => {
    expect(() => validateApl('ds | frobnicate')).toThrow(
      expect.objectContaining({ kind: 'invalid', code: 'apl_unknown_operator' }),
    );
    expect(() => validateApl('ds | where count() > 1')).toThrow(
      expect.objectContaining({ code: 'apl_aggregate_not_allowed' }),
    );
    expect(() => validateApl('ds | extend x = strlen(a, b)')).toThrow(
      expect.objectContaining({ code: 'apl_wrong_arity' }),
    );
  });
});

describe('referencedDatasets', () => {
  it('lists datasets in order, excluding let-bound tables', () => {
    expect(referencedDatasets("let t = ['a-b'] | where x > 1; t | join (c) on k | union d, t")).toEqual([
      'a-b',
      'c',
      'd',
    ]);
  });
});

describe('join kinds', () => {
  // Left keys a, b, null; right keys a (twice), c, null. Null keys never match.
  const joinCatalog = new MemoryCatalog(
    {
      L: [
        { _time: '2024-05-01T00:00:00Z', k: 'a', lv: 1 },
        { _time: '2024-05-01T00:01:00Z', k: 'b', lv: 2 },
        { _time: '2024-05-01T00:02:00Z', k: null, lv: 3 },
      ],
      R: [
        { _time: '2024-05-01T00:00:00Z', k: 'a', rv: 10 },
        { _time: '2024-05-01T00:01:00Z', k: 'c', rv: 30 },
        { _time: '2024-05-01T00:02:00Z', k: 'a', rv: 11 },
        { _time: '2024-05-01T00:03:00Z', k: null, rv: 40 },
      ],
    },
    { batchSize: 2 },
  );
  const jopts: RunAplOptions = { ...opts, catalog: joinCatalog };
  const sorted = (r: unknown[][]) => [...r].sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1));
  const run = async (apl: string) => {
    const out = await runApl(apl, jopts);
    return { names: out.tables[0].fields.map((f) => f.name), rows: sorted(rows(out)) };
  };

  it.each([
    [
      'inner',
      [
        ['a', 1, 10],
        ['a', 1, 11],
      ],
    ],
    [
      'leftouter',
      [
        ['a', 1, 10],
        ['a', 1, 11],
        ['b', 2, null],
        [null, 3, null],
      ],
    ],
    [
      'rightouter',
      [
        ['a', 1, 10],
        ['a', 1, 11],
        [null, null, 30], // Kusto: an unmatched right row's key is in k1; the left k is empty
        [null, null, 40],
      ],
    ],
    [
      'fullouter',
      [
        ['a', 1, 10],
        ['a', 1, 11],
        ['b', 2, null],
        [null, 3, null],
        [null, null, 30], // Kusto: an unmatched right row's key is in k1; the left k is empty
        [null, null, 40],
      ],
    ],
  ])('kind=%s on a shared key', async (kind, expected) => {
    const out = await run(`L | join kind=${kind} (R) on k | project k, lv, rv`);
    expect(out.rows).toEqual(sorted(expected));
  });

  it('rightouter / fullouter keep both key columns when the names differ', async () => {
    const q = (kind: string) =>
      `L | project lk = k, lv | join kind=${kind} (R | project rk = k, rv) on $left.lk == $right.rk`;
    expect((await run(q('rightouter'))).rows).toEqual(
      sorted([
        ['a', 1, 'a', 10],
        ['a', 1, 'a', 11],
        [null, null, 'c', 30],
        [null, null, null, 40],
      ]),
    );
    const full = await run(q('fullouter'));
    expect(full.names).toEqual(['lk', 'lv', 'rk', 'rv']);
    expect(full.rows).toEqual(
      sorted([
        ['a', 1, 'a', 10],
        ['a', 1, 'a', 11],
        ['b', 2, null, null],
        [null, 3, null, null],
        [null, null, 'c', 30],
        [null, null, null, 40],
      ]),
    );
  });

  it.each([
    ['leftsemi', ['_sysTime', '_time', 'k', 'lv'], [['a', 1]]],
    ['semi', ['_sysTime', '_time', 'k', 'lv'], [['a', 1]]],
    [
      'leftanti',
      ['_sysTime', '_time', 'k', 'lv'],
      [
        ['b', 2],
        [null, 3],
      ],
    ],
    [
      'anti',
      ['_sysTime', '_time', 'k', 'lv'],
      [
        ['b', 2],
        [null, 3],
      ],
    ],
    [
      'rightsemi',
      ['_sysTime', '_time', 'k', 'rv'],
      [
        ['a', 10],
        ['a', 11],
      ],
    ],
    [
      'rightanti',
      ['_sysTime', '_time', 'k', 'rv'],
      [
        ['c', 30],
        [null, 40],
      ],
    ],
  ])('kind=%s returns one side only', async (kind, names, expected) => {
    const all = await run(`L | join kind=${kind} (R) on k`);
    expect(all.names).toEqual(names);
    const out = await run(`L | join kind=${kind} (R) on k | project ${names.slice(2).join(', ')}`);
    expect(out.rows).toEqual(sorted(expected));
  });

  it('counts and aggregates over a right-side join', async () => {
    const out = await run('L | join kind=rightanti (R) on k | summarize s = sum(rv)');
    expect(out.rows).toEqual([[70]]);
  });
});

describe('search kind=', () => {
  const searchCatalog = new MemoryCatalog({
    logs: [
      { _time: '2024-05-01T00:00:00Z', msg: 'Error at boot' },
      { _time: '2024-05-01T00:01:00Z', msg: 'error lower' },
      { _time: '2024-05-01T00:02:00Z', msg: 'ERROR upper' },
      { _time: '2024-05-01T00:03:00Z', msg: 'all fine' },
    ],
  });
  const sopts: RunAplOptions = { ...opts, catalog: searchCatalog };
  const msgs = async (apl: string) =>
    rows(await runApl(`${apl} | project msg`, sopts))
      .map((r) => r[0])
      .sort();

  it.each([
    ['search "error"', ['ERROR upper', 'Error at boot', 'error lower']],
    ['search kind=default "error"', ['ERROR upper', 'Error at boot', 'error lower']],
    ['search kind=case_insensitive "error"', ['ERROR upper', 'Error at boot', 'error lower']],
    ['search kind=case_sensitive "error"', ['error lower']],
    ['search kind=case_sensitive "Error"', ['Error at boot']],
    ['search kind=case_sensitive "ERR*"', ['ERROR upper']],
    ['search kind=case_sensitive "*ower"', ['error lower']],
    ['search kind=case_sensitive "*RRO*"', ['ERROR upper']],
    ['search kind=case_sensitive "*rro*" and "boot"', ['Error at boot']],
    ['search kind=case_sensitive msg has "error"', ['error lower']],
    ['search kind=case_sensitive msg !contains "rror"', ['ERROR upper', 'all fine']],
  ])('%s', async (apl, expected) => {
    expect(await msgs(`logs | ${apl}`)).toEqual(expected);
  });
});

describe('rand() and sample', () => {
  // One batch of 400 rows: a per-batch draw would keep all rows or none.
  const many = Array.from({ length: 400 }, (_, i) => ({
    _time: new Date(Date.UTC(2024, 4, 1) + i * 1000).toISOString(),
    i,
  }));
  const randCatalog = new MemoryCatalog({ many }, { batchSize: 400 });
  const ropts: RunAplOptions = { ...opts, catalog: randCatalog };

  it('draws rand() per row', async () => {
    const out = await runApl('many | extend r = rand() | distinct r | count', ropts);
    expect(rows(out)[0][0]).toBeGreaterThan(390);
  });

  it('samples single rows', async () => {
    // P(outside [120, 280]) for Binomial(400, 0.5) is below 1e-15.
    const n = rows(await runApl('many | sample 0.5 | count', ropts))[0][0] as number;
    expect(n).toBeGreaterThanOrEqual(120);
    expect(n).toBeLessThanOrEqual(280);
  });
});
