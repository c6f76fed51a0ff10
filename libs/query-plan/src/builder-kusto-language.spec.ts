import { QuarryError } from '@quarry/common';
import { printPlan } from './printer';
import { optimize } from './optimizer';
import { plan } from './test-helpers';

function planError(q: string): QuarryError {
  try {
    plan(q);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error('expected an error');
}

describe('buildPlan: Kusto language extensions', () => {
  it('binds scalar functions with their defaults and without the caller’s columns', () => {
    const p = plan(
      'let f = (a: long, b: long = 10) { a + b }; ds | extend x = f(1), y = f(2, 3) | project x, y',
    );
    expect(p.root.schema).toEqual([
      { name: 'x', type: 'long' },
      { name: 'y', type: 'long' },
    ]);
    expect(printPlan(p.root)).toContain('Extend x=(1 + 10), y=(2 + 3)');
    expect(planError('let f = (a: long) { a + status }; ds | extend x = f(1)').code).toBe(
      'apl_unknown_field',
    );
    expect(planError('let f = (a: long) { a }; print f()').code).toBe('apl_wrong_arity');
    expect(planError('let f = (a: long) { a }; print f(1, 2)').code).toBe('apl_wrong_arity');
    expect(planError('let f = (a: long) { a }; print f("x")').code).toBe('apl_type_mismatch');
  });

  it('rejects a function that calls itself', () => {
    expect(planError('let f = (a: long) { f(a) }; print f(1)').code).toBe('apl_invalid_argument');
  });

  it('builds tabular functions as their body with the arguments bound', () => {
    const p = plan('let recent = (n: long) { ds | take n }; recent(5) | project method');
    expect(printPlan(p.root)).toMatch(/Top 5 by _time desc\n\s+Scan ds/);
  });

  it('plans window functions as a window extend above a serialized input, hidden columns dropped', () => {
    const p = plan('ds | sort by _time asc | extend rn = row_number(), d = _time - prev(_time)');
    expect(p.root.schema.map((f) => f.name)).not.toContain('__window_0');
    expect(p.root.schema.slice(-2)).toEqual([
      { name: 'rn', type: 'long' },
      { name: 'd', type: 'timespan' },
    ]);
    expect(planError('ds | extend rn = row_number()').code).toBe('apl_invalid_argument');
    expect(planError('ds | summarize max(row_number())').code).toBe('apl_invalid_argument');
    expect(planError('ds | sort by _time | extend x = row_cumsum(method)').code).toBe('apl_type_mismatch');
    expect(planError('ds | sort by _time | extend x = prev(method, -1)').code).toBe('apl_invalid_argument');
  });

  it('keeps a filter above a window extend (the window sees every row)', () => {
    const p = optimize(plan('ds | serialize rn = row_number() | where method == "GET"').root);
    const text = printPlan(p);
    expect(text.indexOf('Filter')).toBeLessThan(text.indexOf('row_number'));
  });

  it('plans range as inline rows and rejects non-constant or runaway ranges', () => {
    expect(plan('range x from 1 to 3 step 1').root).toMatchObject({ input: { kind: 'values' } });
    expect(plan('range t from datetime(2024-05-01) to datetime(2024-05-02) step 12h').root.schema).toEqual([
      { name: 't', type: 'datetime' },
    ]);
    expect(planError('range x from 1 to 1000000 step 1').code).toBe('apl_invalid_argument');
    expect(planError('range x from 1 to 3 step 0').code).toBe('apl_invalid_argument');
  });

  it('keeps a join’s same-named right key as Key1; lookup drops it', () => {
    const joined = plan('ds | project method, status | join (ds | project method, n = 1) on method');
    expect(joined.root.schema.map((f) => f.name)).toEqual(['method', 'status', 'method1', 'n']);
    const looked = plan('ds | project method, status | lookup (ds | project method, n = 1) on method');
    expect(looked.root.schema.map((f) => f.name)).toEqual(['method', 'status', 'n']);
  });

  it('binds toscalar to the first value the caller computed, typed by the subquery', () => {
    // The planner alone has no subquery values: the constant is a typed null.
    const p = plan('let c = toscalar(ds | summarize count()); print x = c');
    expect(p.root.schema).toEqual([{ name: 'x', type: 'long' }]);
    const values = (p.root as { input: { kind: string; rows: unknown[][] } }).input;
    expect(values.rows).toEqual([[{ kind: 'lit', value: null, type: 'long' }]]);
  });
});
