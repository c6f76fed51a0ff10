import { parseApl } from '@quarry/apl';
import type { ColumnBatch } from '@quarry/contracts';
import { buildPlan, materializedTable } from './builder';
import { printPlan } from './printer';
import { T0, T1, plan } from './test-helpers';

describe('printPlan', () => {
  it('prints a cached materialize(T) with the row count of its batch (was rows=0)', () => {
    // Three cached rows; the batch's columns do not matter to the printer.
    const batch: ColumnBatch = { length: 3, columns: new Map() };
    const built = buildPlan(
      parseApl('let m = materialize(range x from 1 to 3 step 1 | summarize c = count() by x); m'),
      {
        startMs: T0,
        endMs: T1,
        nowMs: T1,
        datasetSchema: () => [],
        materialized: (plan) => materializedTable(plan, 'k', batch),
      },
    );
    const text = printPlan(built.root);
    expect(text).toContain('Values [x, c] rows=3 materialized');
  });

  it('prints inline rows as their count', () => {
    const built = plan('datatable(a: long)[1, 2]');
    expect(printPlan(built.root)).toContain('Values [a] rows=2');
    expect(printPlan(built.root)).not.toContain('materialized');
  });
});
