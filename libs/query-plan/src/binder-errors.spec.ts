import { parseApl } from '@quarry/apl';
import { QuarryError } from '@quarry/common';
import { buildPlan } from './builder';
import { SCHEMA, T0, T1, plan } from './test-helpers';

function planError(text: string, checkRegex?: (p: string) => string | null): QuarryError {
  try {
    if (checkRegex)
      buildPlan(parseApl(text), {
        startMs: T0,
        endMs: T1,
        nowMs: T1,
        checkRegex,
        datasetSchema: () => SCHEMA,
      });
    else plan(text);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error(`expected a planning error for: ${text}`);
}

describe('binder errors', () => {
  it.each([
    ['ds | summarize coutn() by method', 'apl_unknown_function', 16, 'count'],
    ['ds | summarize summ(req_duration_ms)', 'apl_unknown_function', 16, 'sum'],
    ['ds | extend n = strln(method)', 'apl_unknown_function', 17, 'strlen'],
    ['ds | extend n = frobnicate(method)', 'apl_unknown_function', 17, undefined],
    ['ds | where Method == "GET"', 'apl_unknown_field', 12, 'method'],
    ['ds | project stats', 'apl_unknown_field', 14, 'status'],
    ['let limit = 5; ds | take limt', 'apl_unknown_field', 26, 'limit'],
    ['ds | summarize arg_max(*)', 'apl_invalid_argument', 24, undefined],
    ['ds | summarize sum(*)', 'apl_invalid_argument', 20, undefined],
    ['ds | join (ds) on $left.method == $right.methd', 'apl_unknown_field', 42, 'method'],
  ])('%s → %s at 1:%d suggesting %s', (text, code, column, suggestion) => {
    const err = planError(text);
    expect(err).toMatchObject({ kind: 'invalid', code, span: { line: 1, column } });
    if (suggestion)
      expect(err.message).toMatch(new RegExp(`at 1:${column}; did you mean '${suggestion}'\\?$`));
    else expect(err.message).not.toContain('did you mean');
  });

  it.each([
    ['ds | extend r = round(method, 1)', 23, "argument 1 of 'round': expected a number but got string"],
    ['ds | extend r = round(1.5, "2")', 28, "argument 2 of 'round': expected a number but got string"],
    ['ds | where _time > ago("1h")', 24, "argument 1 of 'ago': expected a timespan but got string"],
    ['ds | extend d = hourofday("x")', 27, "argument 1 of 'hourofday': expected a datetime but got string"],
    ['ds | extend x = iif(1, 2, 3)', 21, "argument 1 of 'iif': expected bool but got long"],
    ['ds | extend x = case(true, 1, 5, 2, 3)', 31, "argument 3 of 'case': expected bool but got long"],
    ['ds | summarize count() by bin(_time, 60)', 38, "argument 2 of 'bin': expected a timespan but got long"],
    ['ds | summarize sum(method)', 20, "argument 1 of 'sum': expected a number or timespan but got string"],
    ['ds | summarize sumif(1, 2)', 25, "argument 2 of 'sumif': expected bool but got long"],
    [
      'ds | where _time > "2024"',
      18,
      "operator '>': expected comparable operand types but got datetime and string",
    ],
    ['ds | where _time between (1 .. 2)', 27, "operator 'between': expected bounds of the type of the value"],
  ])('%s → a type mismatch at 1:%d', (text, column, message) => {
    const err = planError(text);
    expect(err).toMatchObject({ kind: 'invalid', code: 'apl_type_mismatch', span: { line: 1, column } });
    expect(err.message).toContain(`${message}`);
    expect(err.message).toContain(` at 1:${column}`);
  });

  it('checks constant regular expressions with the engine’s checker, at the pattern', () => {
    const check = (p: string) => (p.includes('BAD') ? 'bad pattern' : null);
    expect(planError('ds | where method matches regex "BAD"', check)).toMatchObject({
      code: 'apl_invalid_regex',
      span: { column: 33 },
    });
    expect(planError('ds | extend x = extract("BAD", 1, method)', check)).toMatchObject({
      code: 'apl_invalid_regex',
      span: { column: 25 },
    });
    expect(planError('ds | extend x = indexof_regex(method, "BAD")', check)).toMatchObject({
      code: 'apl_invalid_regex',
    });
    expect(planError('ds | parse kind=regex method with "BAD" a', check)).toMatchObject({
      code: 'apl_invalid_regex',
    });
    // Without a checker (static validation), patterns are not compiled.
    expect(() => plan('ds | where method matches regex "BAD"')).not.toThrow();
  });
});
