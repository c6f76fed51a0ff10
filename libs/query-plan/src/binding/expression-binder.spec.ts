import { QuarryError } from '@quarry/common';
import { plan } from '../test-helpers';

function planError(text: string): QuarryError {
  try {
    plan(text);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error(`expected a planning error for: ${text}`);
}

/** The columns a query's plan returns, by name. */
function columnNames(text: string): string[] {
  return plan(text).root.schema.map((f) => f.name);
}

describe('series_stats in extend / project (Kusto series_stats page)', () => {
  it('takes the ignore_nonfinite flag in the multi-column form', () => {
    expect(columnNames('print x = dynamic([1]) | project series_stats(x, true)')).toEqual([
      'series_stats_x_min',
      'series_stats_x_min_idx',
      'series_stats_x_max',
      'series_stats_x_max_idx',
      'series_stats_x_avg',
      'series_stats_x_stdev',
      'series_stats_x_variance',
    ]);
  });

  it('keeps only the named columns when fewer names than columns are given', () => {
    expect(columnNames('print x = dynamic([1]) | project (a, b, c) = series_stats(x)')).toEqual([
      'a',
      'b',
      'c',
    ]);
  });

  it.each([
    ['print x = dynamic([1]) | project series_stats(x, true, 1)', 'apl_wrong_arity'],
    ['print x = dynamic([1]) | project series_stats()', 'apl_wrong_arity'],
    ['print x = dynamic([1]) | project series_stats(x, "yes")', 'apl_type_mismatch'],
    ['print x = dynamic([1]) | project (a, b, c, d, e, f, g, h) = series_stats(x)', 'apl_invalid_argument'],
  ])('%s is %s', (text, code) => {
    expect(planError(text)).toMatchObject({ kind: 'invalid', code });
  });

  it('names the function and the argument when the flag is not a bool', () => {
    expect(planError('print x = dynamic([1]) | project series_stats(x, "yes")').message).toContain(
      "argument 2 of 'series_stats'",
    );
  });
});
