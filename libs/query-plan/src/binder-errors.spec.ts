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
  ])('%s → %s at 1:%d suggesting %s', (text, code, column, suggestion) => {
    const err = planError(text);
    expect(err).toMatchObject({ kind: 'invalid', code, span: { line: 1, column } });
    if (suggestion)
      expect(err.message).toMatch(new RegExp(`at 1:${column}; did you mean '${suggestion}'\\?$`));
    else expect(err.message).not.toContain('did you mean');
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
