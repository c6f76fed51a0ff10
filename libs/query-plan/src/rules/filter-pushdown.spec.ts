import { printPlan } from '../printer';
import { plan } from '../test-helpers';
import { filterPushdown } from './filter-pushdown';

describe('filter pushdown', () => {
  it('merges consecutive filters into the scan', () => {
    const before = plan('ds | where status == "500" | where method == "GET" | count').root;
    expect(printPlan(before)).toBe(
      [
        'Aggregate keys=[] aggs=[count=count()]',
        '  Filter (method == "GET")',
        '    Filter (status == "500")',
        '      Scan ds window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z) columns=*',
      ].join('\n'),
    );
    const after = filterPushdown.apply(before);
    expect(printPlan(after)).toBe(
      [
        'Aggregate keys=[] aggs=[count=count()]',
        '  Scan ds window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z) columns=* filter=((status == "500") and (method == "GET"))',
      ].join('\n'),
    );
    expect(after.schema).toEqual(before.schema);
  });

  it('moves a filter below an extend it does not depend on, but not below one it reads', () => {
    expect(
      printPlan(filterPushdown.apply(plan('ds | extend x = 1 | where status == "1" | count').root)),
    ).toBe(
      [
        'Aggregate keys=[] aggs=[count=count()]',
        '  Extend x=1',
        '    Scan ds window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z) columns=* filter=(status == "1")',
      ].join('\n'),
    );
    expect(printPlan(filterPushdown.apply(plan('ds | extend x = 1 | where x == 1 | count').root))).toContain(
      '  Filter (x == 1)\n    Extend x=1',
    );
  });

  it('keeps a whole-row predicate (search) above an extend, whose columns it reads', () => {
    const after = printPlan(
      filterPushdown.apply(plan('ds | extend x = "needle" | search "needle" | count').root),
    );
    expect(after).toContain('Filter');
    expect(after.indexOf('Filter')).toBeLessThan(after.indexOf('Extend'));
  });

  it('does not move filters across limits or aggregations', () => {
    const p = printPlan(
      filterPushdown.apply(plan('ds | summarize c = count() by method | where c > 1').root),
    );
    expect(p).toContain('Filter (c > 1)\n  Aggregate');
  });
});
