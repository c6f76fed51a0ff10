import { QuarryError } from '@quarry/common';
import { DIAGNOSTICS, aplError, formatDiagnostic, isDiagnosticCode } from './diagnostics';
import { parseApl } from './parser';

function parseError(text: string): QuarryError {
  try {
    parseApl(text);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error(`expected a parse error for: ${text}`);
}

describe('diagnostics', () => {
  it('puts the position before the suggestion', () => {
    const span = { start: 33, end: 38, line: 1, column: 34 };
    expect(formatDiagnostic('apl_unknown_function', { name: 'coutn', suggestion: 'count' }, span)).toBe(
      "unknown function 'coutn' at 1:34; did you mean 'count'?",
    );
    const err = aplError('apl_unknown_field', { name: 'x', suggestion: undefined }, span);
    expect(err).toMatchObject({ kind: 'invalid', code: 'apl_unknown_field', span, details: { name: 'x' } });
    expect(err.message).toBe("unknown field 'x' at 1:34");
  });

  it('lists every code once, each documented', () => {
    const codes = DIAGNOSTICS.map((d) => d.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const d of DIAGNOSTICS) {
      expect(d.code).toMatch(/^apl_[a-z_]+$/);
      expect(d.meaning.length).toBeGreaterThan(10);
      expect(isDiagnosticCode(d.code)).toBe(true);
    }
    expect(isDiagnosticCode('nope')).toBe(false);
  });

  it.each([
    ['ds | summarise count()', 'apl_unknown_operator', 1, 6, 'summarize'],
    ['ds | WHERE x', 'apl_unknown_operator', 1, 6, 'where'],
    ['ds | sort bye x', 'apl_expected_token', 1, 11, 'by'],
    ['ds | sort by x dsc', 'apl_unexpected_token', 1, 16, 'desc'],
    ['ds\n| where a contians "b"', 'apl_unexpected_token', 2, 11, 'contains'],
    ['ds | where a == 1 adn b == 2', 'apl_unexpected_token', 1, 19, 'and'],
    ['ds | sort by x nulls frist', 'apl_expected_token', 1, 22, 'first'],
    ['ds | join kind=innr (t) on a', 'apl_invalid_argument', 1, 16, 'inner'],
    ['ds | search kind=case_sensitiv "x"', 'apl_invalid_argument', 1, 18, 'case_sensitive'],
    ['ds | parse kind=regx a with "x" b', 'apl_invalid_argument', 1, 17, 'regex'],
    ['ds | extend x = ago(1xyzzy)', 'apl_invalid_timespan_unit', 1, 22, undefined],
    ['ds | extend x = ago(1mins)', 'apl_invalid_timespan_unit', 1, 22, 'min'],
    ['ds | extend x = tolong(1) to typeof(strin)', 'apl_unexpected_token', 1, 27, undefined],
    ['ds | mv-expand x to typeof(strin)', 'apl_expected_token', 1, 28, 'string'],
    ['datatable(a: lon)[1]', 'apl_expected_token', 1, 14, 'long'],
  ])('%s → %s at %d:%d suggesting %s', (text, code, line, column, suggestion) => {
    const err = parseError(text);
    expect(err).toMatchObject({ kind: 'invalid', code, span: { line, column } });
    if (suggestion)
      expect(err.message).toMatch(new RegExp(`at ${line}:${column}; did you mean '${suggestion}'\\?$`));
    else expect(err.message).not.toContain('did you mean');
  });

  it('rejects deep nesting and long operator chains before the stack overflows', () => {
    expect(parseError(`print x = ${'('.repeat(5000)}1${')'.repeat(5000)}`)).toMatchObject({
      code: 'apl_too_complex',
    });
    expect(parseError(`print x = ${'-'.repeat(5000)}1`)).toMatchObject({ code: 'apl_too_complex' });
    expect(parseError(`print x = dynamic(${'['.repeat(5000)}`)).toMatchObject({ code: 'apl_too_complex' });
    expect(parseError(`print x = 1${' + 1'.repeat(5000)}`)).toMatchObject({ code: 'apl_too_complex' });
    expect(() => parseApl(`print x = 1${' + 1'.repeat(900)}`)).not.toThrow();
  });

  it('keeps spans inside the text at its end', () => {
    for (const text of ['print x = "abc\\', 'print x = "\\u12', 'ds |', 'ds | where (a']) {
      const err = parseError(text);
      expect(err.span!.end).toBeLessThanOrEqual(text.length);
      expect(err.span!.column).toBeLessThanOrEqual(text.length + 1);
    }
  });

  it('rejects numbers out of range and inherited property names as units', () => {
    expect(parseError('print x = 1e999')).toMatchObject({ code: 'apl_invalid_number' });
    expect(parseError('print x = 1e305d')).toMatchObject({ code: 'apl_invalid_number' });
    expect(parseError('print x = 1constructor')).toMatchObject({ code: 'apl_invalid_timespan_unit' });
  });
});
