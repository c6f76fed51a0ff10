import { optimize } from '../optimizer';
import { printPlan } from '../printer';
import { plan } from '../test-helpers';
import { projectionPushdown } from './projection-pushdown';

describe('projection pushdown', () => {
  it('reads only the columns a summarize needs (plus _time)', () => {
    const before = plan('ds | where status == "500" | summarize avg(req_duration_ms) by method').root;
    const after = projectionPushdown.apply(before);
    expect(printPlan(after)).toBe(
      [
        'Aggregate keys=[method=method] aggs=[avg_req_duration_ms=avg(req_duration_ms)]',
        '  Filter (status == "500")',
        '    Scan ds window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z) columns=[_time, method, req_duration_ms, status]',
      ].join('\n'),
    );
    expect(after.schema).toEqual(before.schema);
  });

  it('keeps all columns for raw results and narrows for project', () => {
    expect(printPlan(optimize(plan('ds | where status == "1"').root))).toContain('columns=* filter=');
    expect(printPlan(optimize(plan('ds | project city = geo.city | take 5').root))).toContain(
      'columns=[_time, geo.city]',
    );
  });

  it('accounts for columns used by extend, sort and computed keys', () => {
    const p = printPlan(
      optimize(plan('ds | extend x = strlen(method) | sort by req_duration_ms | project x').root),
    );
    expect(p).toContain('columns=[_time, method, req_duration_ms]');
  });

  it('reads every column when the query searches all fields', () => {
    expect(printPlan(optimize(plan('ds | where * has "x" | count').root))).toContain(
      'columns=* filter=(* has "x")',
    );
  });
});
