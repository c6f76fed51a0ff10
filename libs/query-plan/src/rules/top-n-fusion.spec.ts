import { optimize } from '../optimizer';
import { printPlan } from '../printer';
import { plan } from '../test-helpers';
import { filterPushdown } from './filter-pushdown';
import { topNFusion } from './top-n-fusion';

const W = 'window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z)';

describe('top-n fusion', () => {
  it('turns sort | take into a bounded top', () => {
    const before = filterPushdown.apply(
      plan('ds | where status == "404" | sort by _time desc | take 100').root,
    );
    expect(printPlan(before)).toBe(
      ['Limit 100', '  Sort _time desc', `    Scan ds ${W} columns=* filter=(status == "404")`].join('\n'),
    );
    const after = topNFusion.apply(before);
    expect(printPlan(after)).toBe(
      ['Top 100 by _time desc', `  Scan ds ${W} columns=* filter=(status == "404")`].join('\n'),
    );
    expect(after.schema).toEqual(before.schema);
  });

  it('handles order by | limit with several keys and nulls placement', () => {
    expect(
      printPlan(
        topNFusion.apply(plan('ds | order by method asc nulls first, req_duration_ms | limit 5').root),
      ),
    ).toBe(['Top 5 by method asc nulls first, req_duration_ms desc', `  Scan ds ${W} columns=*`].join('\n'));
  });

  it('fuses the default result cap over a bare sort', () => {
    expect(printPlan(topNFusion.apply(plan('ds | sort by req_duration_ms').root))).toBe(
      ['Top 1000 by req_duration_ms desc (default)', `  Scan ds ${W} columns=*`].join('\n'),
    );
  });

  it('keeps the smaller count of a limit above a top', () => {
    expect(printPlan(topNFusion.apply(plan('ds | top 10 by req_duration_ms | take 3').root))).toBe(
      ['Top 3 by req_duration_ms desc', `  Scan ds ${W} columns=*`].join('\n'),
    );
    expect(printPlan(topNFusion.apply(plan('ds | top 2 by req_duration_ms | take 3').root))).toBe(
      ['Top 2 by req_duration_ms desc', `  Scan ds ${W} columns=*`].join('\n'),
    );
  });

  it('leaves a limit that is not directly above the sort alone', () => {
    expect(
      printPlan(topNFusion.apply(plan('ds | sort by req_duration_ms | where status == "1" | take 3').root)),
    ).toBe(
      [
        'Limit 3',
        '  Filter (status == "1")',
        '    Sort req_duration_ms desc',
        `      Scan ds ${W} columns=*`,
      ].join('\n'),
    );
  });

  it('runs in the default pipeline before projection pushdown', () => {
    expect(printPlan(optimize(plan('ds | sort by method | project method | take 2').root))).toBe(
      [
        'Limit 2',
        '  Project method',
        '    Sort method desc',
        `      Scan ds ${W} columns=[_time, method]`,
      ].join('\n'),
    );
    expect(printPlan(optimize(plan('ds | where status == "1" | sort by method | take 2').root))).toBe(
      ['Top 2 by method desc', `  Scan ds ${W} columns=* filter=(status == "1")`].join('\n'),
    );
  });
});
