import { QuarryError } from '@quarry/common';
import { printPlan } from './printer';
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

describe('buildPlan', () => {
  it('names summarize outputs: keys first, default aggregate names', () => {
    const p = plan(
      'ds | summarize count(), avg(req_duration_ms), dcount(method), countif(status == "1"), percentile(req_duration_ms, 95) by bin(_time, 1h), method',
    );
    expect(p.root.schema.map((f) => f.name)).toEqual([
      '_time',
      'method',
      'count_',
      'avg_req_duration_ms',
      'dcount_method',
      'countif_',
      'percentile_req_duration_ms',
    ]);
    expect(p.aggregated).toBe(true);
  });

  it('names `| count` output `count` and print columns', () => {
    expect(plan('ds | count').root.schema).toEqual([{ name: 'count', type: 'long' }]);
    expect(plan('print 1, x = "a"').root.schema.map((f) => f.name)).toEqual(['print_0', 'x']);
  });

  it('types expressions with promotion rules', () => {
    const p = plan(
      'print a = 1 + 2, b = 1 + 2.5, c = now() - datetime(2024-05-01), d = 1h / 1m, e = datetime(2024-05-01) + 1h',
    );
    expect(p.root.schema.map((f) => f.type)).toEqual(['long', 'real', 'timespan', 'real', 'datetime']);
  });

  it('resolves dotted names to flattened fields', () => {
    expect(plan('ds | project c = geo.city').root.schema).toEqual([{ name: 'c', type: 'string' }]);
    expect(plan("ds | project ['geo.city']").root.schema).toEqual([{ name: 'geo.city', type: 'string' }]);
  });

  it('orders raw results newest first with the default limit', () => {
    expect(printPlan(plan('ds | where status == "1"').root)).toBe(
      [
        'Top 1000 by _time desc (default)',
        '  Filter (status == "1")',
        '    Scan ds window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z) columns=*',
      ].join('\n'),
    );
    expect(printPlan(plan('ds | take 5').root)).toBe(
      'Top 5 by _time desc\n  Scan ds window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z) columns=*',
    );
    expect(plan('ds | take 5').aggregated).toBe(false);
  });

  it.each([
    ['ds | where Method == "GET"', 'apl_unknown_field', { name: 'Method', suggestion: 'method' }],
    ['ds | where count() > 5', 'apl_aggregate_not_allowed', { name: 'count' }],
    ['ds | summarize strlen(method)', 'apl_expected_aggregate', {}],
    ['ds | extend x = strlenn(method)', 'apl_unknown_function', { suggestion: 'strlen' }],
    ['ds | extend x = cont(method)', 'apl_unknown_function', { suggestion: 'count' }],
    ['ds | extend x = strlen(method, 2)', 'apl_wrong_arity', { name: 'strlen' }],
    ['ds | project nope', 'apl_unknown_field', { name: 'nope' }],
    ['ds | project-away nope', 'apl_unknown_field', { name: 'nope' }],
    ['ds | extend x = method + 1', 'apl_type_mismatch', {}],
    ['ds | where strlen(method)', 'apl_type_mismatch', {}],
    ['ds | take -1', 'apl_invalid_argument', {}],
    ['ds | take method', 'apl_invalid_argument', {}],
  ])('rejects %j with %s', (q, code, details) => {
    const e = planError(q);
    expect(e.kind).toBe('invalid');
    expect(e.code).toBe(code);
    expect(e.details).toMatchObject(details);
    expect(e.span).toBeDefined();
  });

  it('reports unknown datasets as not_found', () => {
    expect(planError('nope | count').kind).toBe('not_found');
  });
});

describe('buildPlan extensions', () => {
  it('lets a later extend item use an earlier one', () => {
    const p = plan('ds | extend a = strlen(method), b = a * 2 | project b');
    expect(p.root.schema).toEqual([{ name: 'b', type: 'long' }]);
  });

  it('lifts aggregates wrapped in scalar expressions out of summarize', () => {
    const p = plan(
      'ds | summarize r = round(avg(req_duration_ms), 2), c = count(), ratio = countif(status == "500") * 100.0 / count() by method',
    );
    expect(p.root.schema.map((f) => f.name)).toEqual(['method', 'r', 'c', 'ratio']);
    expect(p.aggregated).toBe(true);
    expect(printPlan(p.root)).toContain(
      'Aggregate keys=[method=method] aggs=[__agg=avg(req_duration_ms), c=count(), __agg1=countif(',
    );
  });
});

describe('flattened field access', () => {
  it("resolves ['geo']['city'] and geo.city to the flattened field", () => {
    expect(plan("ds | project c = ['geo']['city']").root.schema).toEqual([{ name: 'c', type: 'string' }]);
    expect(plan('ds | project c = geo.city, t = tags[0]').root.schema).toEqual([
      { name: 'c', type: 'string' },
      { name: 't', type: 'dynamic' },
    ]);
  });

  it('plans make-series with an array per aggregate and a timestamps column', () => {
    const p = plan(
      'ds | make-series c = count() default = 0 on _time from datetime(2024-05-01) to datetime(2024-05-02) step 1h by method',
    );
    expect(p.root.schema.map((f) => `${f.name}:${f.type}`)).toEqual([
      'method:string',
      'c:dynamic',
      '_time:dynamic',
    ]);
    expect(p.aggregated).toBe(true);
  });
});
