/**
 * Kusto's tabular shorthands (issue 19, round 2 operator audit): `sample N`, `sample-distinct`,
 * `top-hitters` and `as`, each planned as the operators its Kusto page defines it by.
 */
import fc from 'fast-check';
import { QuarryError } from '@quarry/common';
import type { PlanNode } from './nodes/plan-node';
import { printPlan } from './printer';
import { plan } from './test-helpers';

/** The first node of a kind on the path of first inputs from the root. */
function find(node: PlanNode, kind: PlanNode['kind']): PlanNode | undefined {
  for (let n: PlanNode | undefined = node; n; n = (n as { input?: PlanNode }).input)
    if (n.kind === kind) return n;
  return undefined;
}

function planError(q: string): QuarryError {
  try {
    plan(q);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error('expected an error');
}

describe('buildPlan: Kusto operator shorthands', () => {
  it('plans `sample N` (a long) as N rows ordered by rand(), and `sample f` (a real) as a filter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), (n) => {
        const p = plan(`ds | sample ${n}`);
        expect(p.root.kind).toBe('top');
        expect(p.root.kind === 'top' && p.root.count).toBe(n);
        expect(printPlan(p.root)).toContain('rand()');
        expect(p.root.schema).toEqual(plan('ds').root.schema);
      }),
    );
    fc.assert(
      fc.property(fc.double({ min: 0.001, max: 0.999, noNaN: true }), (f) => {
        const p = plan(`ds | sample ${f.toFixed(3)}`);
        expect(find(p.root, 'filter')).toBeDefined();
        expect(printPlan(p.root)).toContain(`rand() < ${Number(f.toFixed(3))}`);
        expect(printPlan(p.root)).not.toContain('by rand()');
      }),
    );
    expect(planError('ds | sample -1').code).toBe('apl_invalid_argument');
  });

  it('plans `top-hitters N of X [by S]` as summarize count (or sum) by X, then top N desc', () => {
    const count = plan('ds | top-hitters 3 of method');
    expect(count.root.schema).toEqual([
      { name: 'method', type: 'string' },
      { name: 'approximate_count_method', type: 'long' },
    ]);
    expect(count.root.kind).toBe('top');
    const sum = plan('ds | top-hitters 3 of method by req_duration_ms');
    expect(sum.root.schema.map((f) => f.name)).toEqual(['method', 'approximate_sum_method']);
  });

  it('plans `sample-distinct N of X` as one column of at most N distinct values', () => {
    const p = plan('ds | sample-distinct 5 of method');
    expect(p.root.schema).toEqual([{ name: 'method', type: 'string' }]);
    expect(printPlan(p.root)).toMatch(/Limit 5|limit 5|Take 5/i);
  });

  it('plans mv-apply: the subquery per subtable, the input row’s columns first', () => {
    const p = plan(
      'datatable(i: long, a: dynamic) [1, dynamic([1, 2])] | mv-apply x = a to typeof(long) on (top 1 by x | extend y = x * 2)',
    );
    expect(p.root.schema).toEqual([
      { name: 'i', type: 'long' },
      { name: 'a', type: 'dynamic' },
      { name: 'x', type: 'long' },
      { name: 'y', type: 'long' },
    ]);
    // A column expanded without a new name is replaced by its elements (at the end, as Kusto adds it).
    expect(
      plan('datatable(i: long, a: dynamic) [1, dynamic([1])] | mv-apply a on (take 1)').root.schema,
    ).toEqual([
      { name: 'i', type: 'long' },
      { name: 'a', type: 'dynamic' },
    ]);
    expect(
      planError('print a = dynamic([1]) | mv-apply a on (join (print b = 1) on $left.a == $right.b)').code,
    ).toBe('apl_unsupported');
    expect(planError('print a = dynamic([1]) | mv-apply a + 1 on (take 1)').code).toBe(
      'apl_invalid_argument',
    );
  });

  it('plans top-nested: a value and an aggregate column per clause', () => {
    const p = plan(
      'ds | top-nested 2 of method by sum(req_duration_ms), top-nested of s = status by n = count() asc',
    );
    expect(p.root.schema).toEqual([
      { name: 'method', type: 'string' },
      { name: 'aggregated_method', type: 'real' },
      { name: 's', type: 'string' },
      { name: 'n', type: 'long' },
    ]);
    expect(plan('ds | top-nested 2 of method with others = "x" by n = count()').root.schema).toEqual([
      { name: 'method', type: 'string' },
      { name: 'n', type: 'long' },
    ]);
    expect(planError('ds | top-nested 2 of strlen(method) by count()').code).toBe('apl_invalid_argument');
  });

  it('never gives a generated name (Column1, …) to a column that exists: nothing is replaced or dropped', () => {
    const names = (q: string) => plan(q).root.schema.map((f) => f.name);
    expect(names('print a = 1 | extend a * 10, a + 1 | extend a + 2')).toEqual([
      'a',
      'Column1',
      'Column2',
      'Column3',
    ]);
    expect(names('print a = 1 | extend Column1 = 5 | extend a + 1')).toEqual(['a', 'Column1', 'Column2']);
    expect(names('print a = 1, Column1 = 2 | project a + 1, Column1, a')).toEqual([
      'Column2',
      'Column1',
      'a',
    ]);
  });

  it('lets `as` pass rows through and name the input of `union withsource=`', () => {
    expect(plan('ds | as T | count').root.schema).toEqual(plan('ds | count').root.schema);
    const u = plan('print x = 1 | as A | union withsource=src (print x = 2 | as B), (print x = 3)');
    const union = find(u.root, 'union');
    expect(union?.kind === 'union' && union.sourceNames).toEqual(['A', 'B', 'union']);
    expect(plan('ds | as hint.materialized = true T | count').root.kind).toBeDefined();
    // The name is a table for the rest of the query (here the join's right side), not a dataset.
    const self = plan('ds | as T | where status == "200" | join (T | where status == "500") on method');
    expect(self.datasets).toEqual(['ds']);
    expect(planError('ds | join (T | take 1) on method').kind).toBe('not_found');
  });

  it("leads a piped search's rows with $table: the as name, the dataset, or a generated name", () => {
    const tableOf = (q: string) => {
      const root = plan(q).root;
      expect(root.schema[0]).toEqual({ name: '$table', type: 'string' });
      const project = find(root, 'project');
      return project?.kind === 'project' ? project.items[0].expr : undefined;
    };
    expect(tableOf('ds | where status == "200" | search "x"')).toMatchObject({ value: 'ds' });
    expect(tableOf('ds | as T1 | search "x"')).toMatchObject({ value: 'T1' });
    expect(tableOf('ds | summarize count() by method | search "x"')).toMatchObject({ value: 'input' });
    // A leading search's union names each row's dataset already: a second search keeps that column.
    const twice = plan('search in (ds) "x" | search "y"').root;
    expect(twice.schema.filter((f) => f.name === '$table')).toHaveLength(1);
  });
});
