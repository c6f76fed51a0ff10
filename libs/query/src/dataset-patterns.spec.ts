import { QuarryError } from '@quarry/common';
import { explainApl, referencedDatasets, runApl, validateApl, type RunAplOptions } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const catalog = new MemoryCatalog({
  'logs-a': [{ _time: '2024-05-01T00:00:00Z', msg: 'disk error on sda' }],
  'logs-b': [
    { _time: '2024-05-01T01:00:00Z', msg: 'all good' },
    { _time: '2024-05-01T02:00:00Z', msg: 'Error: timeout' },
  ],
  logsx: [{ _time: '2024-05-01T03:00:00Z', msg: 'error in x' }],
  web: [{ _time: '2024-05-01T04:00:00Z', path: '/error', status: 500 }],
});

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
const column = (out: Awaited<ReturnType<typeof runApl>>, name: string) => {
  const t = out.tables[0];
  return t.columns[t.fields.findIndex((f) => f.name === name)];
};

async function errorOf(p: Promise<unknown>): Promise<QuarryError> {
  try {
    await p;
  } catch (err) {
    return err as QuarryError;
  }
  throw new Error('expected the query to fail');
}

describe('dataset name patterns', () => {
  it('union expands a pattern to every matching dataset, in name order, for withsource', async () => {
    const out = await runApl(
      'union withsource=src logs-* | sort by src asc, _time asc | project src, msg',
      opts,
    );
    expect(rows(out)).toEqual([
      ['logs-a', 'disk error on sda'],
      ['logs-b', 'all good'],
      ['logs-b', 'Error: timeout'],
    ]);
    expect(out.datasetNames).toEqual(['logs-a', 'logs-b']);
  });

  it('supports logs*, quoted patterns, * and a piped union', async () => {
    const n = async (q: string) => rows(await runApl(q, opts))[0][0];
    expect(await n('union logs* | count')).toBe(4);
    expect(await n("union ['logs-*'] | count")).toBe(3);
    expect(await n('union * | count')).toBe(5);
    expect(await n('web | union logs*b | count')).toBe(3);
  });

  it('a pattern matching nothing is a 404', async () => {
    const err = await errorOf(runApl('union nope* | count', opts));
    expect(err.kind).toBe('not_found');
    expect(err.code).toBe('dataset_not_found');
    expect(err.message).toContain("no dataset matches 'nope*'");
  });

  it('expands only over RunAplOptions.datasetNames when given', async () => {
    const out = await runApl('union logs* | count', { ...opts, datasetNames: ['logs-a', 'web'] });
    expect(rows(out)).toEqual([[1]]);
  });

  it('referencedDatasets expands patterns against the given names, else returns the pattern', () => {
    const names = ['logs-a', 'logs-b', 'web'];
    expect(referencedDatasets('union logs*, web | count', names)).toEqual(['logs-a', 'logs-b', 'web']);
    expect(referencedDatasets('union logs*, web | count')).toEqual(['logs*', 'web']);
    expect(referencedDatasets('search "x"', names)).toEqual(names);
    expect(referencedDatasets('search in (web, logs-a) "x"')).toEqual(['web', 'logs-a']);
  });

  it('validateApl accepts patterns without a catalog', () => {
    expect(() => validateApl('union logs* | count')).not.toThrow();
    expect(() => validateApl('search in (web-*) "x" | count')).not.toThrow();
  });

  it('explain shows one scan per matched dataset', async () => {
    const plan = await explainApl('union logs-* | count', opts);
    expect(plan.match(/Scan logs-/g)).toHaveLength(2);
  });
});

describe('leading search', () => {
  it('search in (datasets) unions them with a $table column', async () => {
    const out = await runApl('search in (logs-*, web) "error" | sort by _time asc', opts);
    expect(column(out, '$table')).toEqual(['logs-a', 'logs-b', 'web']);
  });

  it('search without in reads every dataset', async () => {
    const out = await runApl(
      'search "error" | summarize n = count() by ["$table"] | sort by ["$table"] asc',
      opts,
    );
    expect(rows(out)).toEqual([
      ['logs-a', 1],
      ['logs-b', 1],
      ['logsx', 1],
      ['web', 1],
    ]);
  });

  it('kind=case_sensitive applies to a leading search', async () => {
    const out = await runApl('search kind=case_sensitive in (logs*) "Error" | project msg', opts);
    expect(rows(out)).toEqual([['Error: timeout']]);
  });

  it('in (...) after a pipe is a 400', async () => {
    const err = await errorOf(runApl('web | search in (logs*) "x"', opts));
    expect(err.code).toBe('apl_invalid_argument');
    expect(err.message).toContain('only allowed when search starts the query');
  });

  it('a let may bind a leading search', async () => {
    const out = await runApl('let hits = search in (web) "error"; hits | project status', opts);
    expect(rows(out)).toEqual([[500]]);
  });
});

describe('in with a tabular subquery', () => {
  it('uses the first column of the subquery, nested subqueries first', async () => {
    const out = await runApl(
      'web | where status in ((datatable(s:long)[500, 404] | where s in ((datatable(t:long)[500]))))',
      opts,
    );
    expect(rows(out)).toHaveLength(1);
    const none = await runApl(
      'web | where status in ((datatable(s:long)[404] | where s in ((datatable(t:long)[500]))))',
      opts,
    );
    expect(rows(none)).toHaveLength(0);
  });

  it('reports the datasets a subquery reads', () => {
    expect(referencedDatasets('web | where path in ((logsx | project msg)) | count')).toEqual([
      'web',
      'logsx',
    ]);
  });

  it('works in extend and with !in, and validates without running', async () => {
    const out = await runApl(
      "['logs-b'] | extend bad = msg !in ((['logs-a'] | project msg)) | project bad",
      opts,
    );
    expect(rows(out)).toEqual([[true], [true]]);
    expect(() => validateApl('ds | where a in ((ds | project b))')).not.toThrow();
    expect(() => validateApl('ds | where a in ((ds | project-away *))')).toThrow(/no columns/);
  });
});
