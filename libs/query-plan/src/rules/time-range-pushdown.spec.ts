import { printPlan } from '../printer';
import { plan } from '../test-helpers';
import { filterPushdown } from './filter-pushdown';
import { timeRangePushdown } from './time-range-pushdown';

const run = (q: string) => printPlan(timeRangePushdown.apply(filterPushdown.apply(plan(q).root)));

describe('time-range pushdown', () => {
  it('narrows the scan window for >= and < and removes those conjuncts', () => {
    expect(
      run(
        'ds | where _time >= datetime(2024-05-02) and _time < datetime(2024-05-02T06:00) and status == "200" | count',
      ),
    ).toBe(
      [
        'Aggregate keys=[] aggs=[count=count()]',
        '  Scan ds window=[2024-05-02T00:00:00Z, 2024-05-02T06:00:00Z) columns=* filter=(status == "200")',
      ].join('\n'),
    );
  });

  it('handles between, constant arithmetic, flipped comparisons and ago()', () => {
    expect(run('ds | where _time between (datetime(2024-05-01T10:00) .. 1h) | count')).toContain(
      'window=[2024-05-01T10:00:00Z, 2024-05-01T11:00:00.000001Z)',
    );
    expect(run('ds | where datetime(2024-05-01) + 6h > _time | count')).toContain(
      'window=[2024-05-01T00:00:00Z, 2024-05-01T06:00:00Z)',
    );
    expect(run('ds | where _time > ago(1d) | count')).toContain(
      'window=[2024-05-02T00:00:00Z, 2024-05-03T00:00:00Z) columns=* filter=(_time > ',
    );
  });

  it('never widens the request window', () => {
    expect(run('ds | where _time >= datetime(2020-01-01) | count')).toContain(
      'window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z)',
    );
  });

  it('leaves non-constant time predicates alone', () => {
    expect(run('ds | where _time > _sysTime | count')).toContain(
      'window=[2024-05-01T00:00:00Z, 2024-05-03T00:00:00Z) columns=* filter=(_time > _sysTime)',
    );
  });
});
