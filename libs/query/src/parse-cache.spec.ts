import { parseApl } from '@quarry/apl';
import type { Catalog, DatasetSource } from '@quarry/contracts';
import { ParseCache, parseCache } from './parse-cache';
import { subqueriesOf } from './referenced-datasets';
import { referencedDatasets, runApl, type RunAplOptions } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';
import type { VirtualField } from './virtual-fields';

/** A catalog whose datasets can be deleted as well as replaced. */
class MutableCatalog implements Catalog {
  readonly inner = new MemoryCatalog();
  private readonly deleted = new Set<string>();
  put(name: string, events: Record<string, unknown>[]): void {
    this.deleted.delete(name);
    this.inner.add(name, events);
  }
  delete(name: string): void {
    this.deleted.add(name);
  }
  async getDataset(name: string): Promise<DatasetSource | null> {
    return this.deleted.has(name) ? null : this.inner.getDataset(name);
  }
  async listDatasets(): Promise<string[]> {
    return (await this.inner.listDatasets()).filter((n) => !this.deleted.has(n));
  }
}

const T0 = Date.UTC(2024, 4, 1);
const rowsOf = (out: Awaited<ReturnType<typeof runApl>>) => {
  const t = out.tables[0];
  return Array.from({ length: t.columns[0]?.length ?? 0 }, (_, i) => t.columns.map((c) => c[i]));
};

describe('ParseCache', () => {
  it('parses each text once, returns the same tree as parseApl, and evicts the least recently used', () => {
    let parses = 0;
    const cache = new ParseCache(2, (text) => {
      parses++;
      return parseApl(text);
    });
    const a = cache.get("['a'] | count");
    expect(cache.get("['a'] | count")).toBe(a);
    expect(a).toEqual(parseApl("['a'] | count"));
    cache.get("['b'] | count");
    cache.get("['a'] | count"); // a is now the most recent
    cache.get("['c'] | count"); // evicts b
    expect(parses).toBe(3);
    cache.get("['a'] | count");
    expect(parses).toBe(3);
    cache.get("['b'] | count");
    expect(parses).toBe(4);
    expect(cache.size).toBe(2);
  });

  it('freezes cached trees so no run can write into a shared one', () => {
    const cache = new ParseCache();
    const q = cache.get("['a'] | where x > 1 | project y");
    expect(Object.isFrozen(q)).toBe(true);
    expect(Object.isFrozen(q.body)).toBe(true);
    expect(() => {
      (q as { statements: unknown[] }).statements.push(1);
    }).toThrow(TypeError);
  });

  it('does not cache a parse error: the same text fails the same way every time', () => {
    const cache = new ParseCache();
    expect(() => cache.get("['a'] | wher x")).toThrow();
    expect(() => cache.get("['a'] | wher x")).toThrow();
    expect(cache.size).toBe(0);
  });
});

describe('runApl with the parse cache: a repeated text never answers from stale bindings', () => {
  const text = "['web'] | project status, kind";
  let catalog: MutableCatalog;
  let vfields: Record<string, VirtualField[]>;
  const opts = (): RunAplOptions => ({
    startMs: T0,
    endMs: T0 + 86_400_000,
    nowMs: T0 + 86_400_000,
    catalog,
    virtualFields: (dataset) => vfields[dataset] ?? [],
  });

  beforeEach(() => {
    catalog = new MutableCatalog();
    vfields = { web: [{ name: 'kind', expression: 'iff(status >= 500, "error", "ok")' }] };
    catalog.put('web', [{ _time: '2024-05-01T00:00:00Z', status: 503 }]);
  });

  it('sees a virtual field redefined between runs of the same text', async () => {
    const hitsBefore = parseCache.hits;
    expect(rowsOf(await runApl(text, opts()))).toEqual([[503, 'error']]);
    vfields = { web: [{ name: 'kind', expression: 'strcat("status ", tostring(status))' }] };
    expect(rowsOf(await runApl(text, opts()))).toEqual([[503, 'status 503']]);
    expect(parseCache.hits).toBeGreaterThan(hitsBefore); // the second run did come from the cache
    vfields = {};
    await expect(runApl(text, opts())).rejects.toMatchObject({ kind: 'invalid' });
  });

  it('sees a stored field that appears, changes type, or shadows a virtual field', async () => {
    expect(rowsOf(await runApl(text, opts()))).toEqual([[503, 'error']]);
    // A stored field of the same name wins over the virtual field.
    catalog.put('web', [{ _time: '2024-05-01T00:00:00Z', status: 503, kind: 'stored' }]);
    expect(rowsOf(await runApl(text, opts()))).toEqual([[503, 'stored']]);
    // The field's type changes: the plan is bound against the new schema.
    catalog.put('web', [{ _time: '2024-05-01T00:00:00Z', status: '503', kind: 'stored' }]);
    expect(rowsOf(await runApl("['web'] | where status == '503' | project status", opts()))).toEqual([
      ['503'],
    ]);
    expect(rowsOf(await runApl("['web'] | summarize n = count() by status", opts()))).toEqual([['503', 1]]);
  });

  it('sees a dataset deleted and recreated with other fields', async () => {
    const q = "['web'] | summarize n = count() by status";
    expect(rowsOf(await runApl(q, opts()))).toEqual([[503, 1]]);
    catalog.delete('web');
    await expect(runApl(q, opts())).rejects.toMatchObject({ kind: 'not_found' });
    expect(referencedDatasets('union web*', await catalog.listDatasets())).toEqual([]);
    catalog.put('web', [
      { _time: '2024-05-01T00:00:00Z', status: 200, path: '/a' },
      { _time: '2024-05-01T00:01:00Z', status: 200, path: '/b' },
    ]);
    expect(rowsOf(await runApl(q, opts()))).toEqual([[200, 2]]);
    expect(rowsOf(await runApl("['web'] | summarize n = dcount(path)", opts()))).toEqual([[2]]);
    expect(referencedDatasets('union web*', await catalog.listDatasets())).toEqual(['web']);
  });

  it('binds the time window and now() of each run, not of the first', async () => {
    catalog.put('web', [
      { _time: '2024-05-01T00:00:00Z', status: 1 },
      { _time: '2024-05-01T12:00:00Z', status: 2 },
    ]);
    const q = "['web'] | where _time > ago(1h) | summarize n = count()";
    const at = (nowMs: number) => ({ ...opts(), nowMs });
    expect(rowsOf(await runApl(q, at(T0 + 30 * 60_000)))).toEqual([[2]]);
    expect(rowsOf(await runApl(q, at(T0 + 12.5 * 3_600_000)))).toEqual([[1]]);
    expect(rowsOf(await runApl(q, at(T0 + 13.5 * 3_600_000)))).toEqual([[0]]);
    // The same text and now() over a narrower window.
    expect(rowsOf(await runApl(q, { ...at(T0 + 30 * 60_000), endMs: T0 + 3_600_000 }))).toEqual([[1]]);
  });
});

describe('runApl onDatasetSchema', () => {
  it('reports the stored fields each dataset was bound with, once per dataset', async () => {
    const catalog = new MemoryCatalog({
      a: [{ _time: '2024-05-01T00:00:00Z', x: 1 }],
      b: [{ _time: '2024-05-01T00:00:00Z', y: 'v' }],
    });
    const seen: [string, string[]][] = [];
    await runApl("union a, b | where isnotnull(x) or y in (['b'] | project y) | count", {
      startMs: T0,
      endMs: T0 + 86_400_000,
      nowMs: T0,
      catalog,
      onDatasetSchema: (name, fields) => seen.push([name, fields.map((f) => f.name).sort()]),
    });
    expect(seen.sort()).toEqual([
      ['a', ['_sysTime', '_time', 'x']],
      ['b', ['_sysTime', '_time', 'y']],
    ]);
  });
});

describe('subqueriesOf on cached trees', () => {
  it('finds the same subqueries as on a fresh tree, and remembers them per tree', () => {
    const texts = [
      "['a'] | where x in (['b'] | where y in (['c'] | project y) | project y) | count",
      "let t = ['a'] | where k in (['b'] | project k); t | union (['c'] | where z in (['d'] | project z))",
      "['a'] | where x in ('p', 'q') | extend d = dynamic({\"in\": 1})",
    ];
    const cache = new ParseCache();
    for (const text of texts) {
      for (const nested of [false, true]) {
        const shared = cache.get(text);
        const fresh = parseApl(text);
        const a = subqueriesOf(shared, nested);
        expect(a).toEqual(subqueriesOf(fresh, nested));
        expect(subqueriesOf(shared, nested)).toBe(a);
        expect(subqueriesOf(fresh, nested)).not.toBe(subqueriesOf(fresh, nested));
      }
    }
    expect(subqueriesOf(cache.get(texts[0]), true)).toHaveLength(2);
    expect(subqueriesOf(cache.get(texts[0]), false)).toHaveLength(1);
  });
});
