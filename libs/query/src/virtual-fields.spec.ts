import { QuarryError } from '@quarry/common';
import { explainApl, runApl, validateApl, type RunAplOptions } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';
import { validateVirtualField, type VirtualField } from './virtual-fields';

const catalog = new MemoryCatalog({
  web: [
    { _time: '2024-05-01T00:00:00Z', status: 200, ms: 1500, path: '/a' },
    { _time: '2024-05-01T01:00:00Z', status: 503, ms: 250, path: '/b' },
    { _time: '2024-05-01T02:00:00Z', status: 404, ms: 40, path: '/a' },
  ],
  other: [{ _time: '2024-05-01T00:30:00Z', status: 503 }],
});

const VFIELDS: Record<string, VirtualField[]> = {
  web: [
    { name: 'is_error', expression: 'status >= 500' },
    { name: 'seconds', expression: 'ms / 1000.0' },
    { name: 'status_class', expression: 'strcat(tostring(status / 100), "xx")' },
    // A stored field of the same name wins: this definition is ignored.
    { name: 'path', expression: '"shadowed"' },
    // Reads a field the dataset has not received: null, not an error.
    { name: 'region', expression: 'tolower(geo_region)' },
  ],
};

const opts: RunAplOptions = {
  startMs: Date.UTC(2024, 4, 1),
  endMs: Date.UTC(2024, 4, 2),
  nowMs: Date.UTC(2024, 4, 2),
  catalog,
  virtualFields: (dataset) => VFIELDS[dataset] ?? [],
};

const rows = (out: Awaited<ReturnType<typeof runApl>>) => {
  const t = out.tables[0];
  return Array.from({ length: t.columns[0]?.length ?? 0 }, (_, i) => t.columns.map((c) => c[i]));
};

async function errorOf(p: Promise<unknown>): Promise<QuarryError> {
  try {
    await p;
  } catch (err) {
    return err as QuarryError;
  }
  throw new Error('expected the query to fail');
}

describe('virtual fields', () => {
  it('are usable in where, project and summarize by', async () => {
    const filtered = await runApl('web | where is_error | project path, seconds', opts);
    expect(rows(filtered)).toEqual([['/b', 0.25]]);
    const grouped = await runApl(
      'web | summarize n = count() by status_class | sort by status_class asc',
      opts,
    );
    expect(rows(grouped)).toEqual([
      ['2xx', 1],
      ['4xx', 1],
      ['5xx', 1],
    ]);
  });

  it('appear after stored fields in raw rows; a stored field of the same name wins', async () => {
    const out = await runApl('web | take 1', opts);
    const t = out.tables[0];
    expect(t.fields.map((f) => f.name)).toEqual([
      '_sysTime',
      '_time',
      'ms',
      'path',
      'status',
      'is_error',
      'seconds',
      'status_class',
      'region',
    ]);
    expect(rows(out)[0].slice(2)).toEqual([40, '/a', 404, false, 0.04, '4xx', null]);
  });

  it('feed extend and are listed by getschema', async () => {
    const out = await runApl('web | extend slow = seconds > 1 | where slow | project path', opts);
    expect(rows(out)).toEqual([['/a']]);
    const schema = await runApl('web | getschema | project ColumnName', opts);
    expect(rows(schema).map((r) => r[0])).toEqual(expect.arrayContaining(['is_error', 'seconds', 'region']));
  });

  it('are searched like other columns', async () => {
    const out = await runApl('web | search "5xx" | project status', opts);
    expect(rows(out)).toEqual([[503]]);
  });

  it('belong to their dataset only', async () => {
    const err = await errorOf(runApl('other | where is_error', opts));
    expect(err.code).toBe('apl_unknown_field');
  });

  it('work on both sides of union and join', async () => {
    const out = await runApl('union web, other | summarize n = countif(is_error)', opts);
    expect(rows(out)).toEqual([[1]]);
    const joined = await runApl(
      'other | join kind=inner (web | project status, status_class) on status | project status_class',
      opts,
    );
    expect(rows(joined)).toEqual([['5xx']]);
  });

  it('are computed only when read', async () => {
    const plan = await explainApl('web | where status > 300 | project seconds', opts);
    expect(plan).toContain('VirtualFields seconds=');
    expect(plan).not.toContain('is_error');
    expect(plan).not.toContain('status_class');
    const none = await explainApl('web | summarize count()', opts);
    expect(none).not.toContain('seconds=');
  });

  it('an invalid definition is a 400 naming the virtual field', async () => {
    const broken = (expression: string): RunAplOptions => ({
      ...opts,
      virtualFields: (d) => (d === 'web' ? [{ name: 'bad', expression }] : []),
    });
    for (const expression of ['status +', 'coutn(status)', 'strlen(1, 2, 3)', 'count()']) {
      const err = await errorOf(runApl('web | take 1', broken(expression)));
      expect(err).toBeInstanceOf(QuarryError);
      expect(err.kind).toBe('invalid');
      expect(err.code).toBe('apl_virtual_field_invalid');
      expect(err.message).toContain("virtual field 'bad' of dataset 'web'");
      expect(err.span).toMatchObject({ line: 1, column: 1 });
    }
    expect(() =>
      validateApl('web | take 1', { virtualFields: () => [{ name: 'bad', expression: 'x +' }] }),
    ).toThrow(/virtual field 'bad'/);
  });

  it('may not reference other virtual fields (so no cycles)', async () => {
    const err = await errorOf(
      runApl('web | take 1', {
        ...opts,
        virtualFields: () => [
          { name: 'a', expression: 'b + 1' },
          { name: 'b', expression: 'a + 1' },
        ],
      }),
    );
    expect(err.code).toBe('apl_virtual_field_invalid');
    expect(err.message).toContain("refers to virtual field 'b'");
  });

  it('does not see the query’s let statements', async () => {
    const out = await runApl('let status_class = "x"; web | project region | take 1', {
      ...opts,
      virtualFields: () => [{ name: 'region', expression: 'status_class' }],
    });
    expect(rows(out)).toEqual([[null]]);
  });

  it('validateVirtualField checks a definition before it is stored', () => {
    expect(() =>
      validateVirtualField('web', { name: 'ok', expression: 'iff(status > 500, "bad", "ok")' }),
    ).not.toThrow();
    expect(() => validateVirtualField('web', { name: 'v', expression: 'iff(status > 500' })).toThrow(
      expect.objectContaining({ code: 'apl_virtual_field_invalid' }),
    );
  });
});
