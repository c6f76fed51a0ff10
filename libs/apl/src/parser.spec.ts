import { QuarryError } from '@quarry/common';
import type { BinaryExpr, CallExpr, LiteralExpr } from './ast';
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

function firstWhere(text: string) {
  const op = parseApl(text).body.operators[0];
  if (op.kind !== 'where') throw new Error('not a where');
  return op.predicate;
}

function printLiteral(text: string): LiteralExpr {
  const src = parseApl(`print x = ${text}`).body.source;
  if (src.kind !== 'print') throw new Error('not print');
  return src.items[0].expr as LiteralExpr;
}

describe('parseApl', () => {
  it('parses a pipeline with dataset forms and operators', () => {
    const q = parseApl(
      `['sample-http-logs'] | where status == "500" | summarize c = count() by bin(_time, 1h) | sort by c desc | take 3`,
    );
    expect(q.body.source).toMatchObject({ kind: 'dataset', name: 'sample-http-logs' });
    expect(q.body.operators.map((o) => o.kind)).toEqual(['where', 'summarize', 'sort', 'take']);
    expect(parseApl('github | count').body.source).toMatchObject({ kind: 'dataset', name: 'github' });
    expect(parseApl('["my ds"] | count').body.source).toMatchObject({ kind: 'dataset', name: 'my ds' });
  });

  it('records spans with line and column', () => {
    const q = parseApl('ds\n| where a == 1');
    const pred = (q.body.operators[0] as { predicate: BinaryExpr }).predicate;
    expect(pred.span).toMatchObject({ line: 2, column: 9, start: 11, end: 17 });
    expect(pred.opSpan).toMatchObject({ line: 2, column: 11 });
  });

  it('parses let statements (scalar and tabular) and a trailing semicolon', () => {
    const q = parseApl('let n = 5; let t = ds | where x > n; t | count;');
    expect(q.statements.map((s) => s.kind)).toEqual(['let-scalar', 'let-tabular']);
    expect(q.body.source).toMatchObject({ kind: 'dataset', name: 't' });
  });

  it('reads digits then a word holding `_` as a name, not a timespan (Kusto: `5h_MovingAvg`)', () => {
    const q = parseApl('ds | extend 5h_MovingAvg = 1 | project 5h_MovingAvg');
    expect(q.body.operators[0]).toMatchObject({ kind: 'extend', items: [{ name: '5h_MovingAvg' }] });
    expect(printLiteral('5h')).toMatchObject({ type: 'timespan', value: 18_000_000 });
    expect(parseError('print x = 1.5h_x')).toMatchObject({ code: 'apl_invalid_timespan_unit' });
  });

  it('skips comments', () => {
    const q = parseApl('ds // dataset\n// full line\n| where a == "x" // trailing\n| count');
    expect(q.body.operators.map((o) => o.kind)).toEqual(['where', 'count']);
  });

  it('parses literal forms', () => {
    expect(printLiteral('"a\\"b\\n"').value).toBe('a"b\n');
    expect(printLiteral('@"\\d+"').value).toBe('\\d+');
    expect(printLiteral('1.5h')).toMatchObject({ type: 'timespan', value: 5_400_000 });
    expect(printLiteral('100ms')).toMatchObject({ type: 'timespan', value: 100 });
    expect(printLiteral('1d')).toMatchObject({ type: 'timespan', value: 86_400_000 });
    expect(printLiteral('30m')).toMatchObject({ type: 'timespan', value: 1_800_000 });
    expect(printLiteral('-3')).toMatchObject({ type: 'long', value: -3 });
    expect(printLiteral('1e3')).toMatchObject({ type: 'real', value: 1000 });
    expect(printLiteral('true')).toMatchObject({ type: 'bool', value: true });
    expect(printLiteral('datetime(2024-05-01 12:00:00)')).toMatchObject({
      type: 'datetime',
      value: Date.UTC(2024, 4, 1, 12),
    });
    expect(printLiteral('datetime(2024-05-01T10:20:30.5Z)')).toMatchObject({
      type: 'datetime',
      value: Date.UTC(2024, 4, 1, 10, 20, 30, 500),
    });
    expect(printLiteral('datetime("2024-05-01")')).toMatchObject({
      type: 'datetime',
      value: Date.UTC(2024, 4, 1),
    });
    // Kusto's startofweek page writes `datetime(2025, 6, 14)`: year, month, day.
    expect(printLiteral('datetime(2025, 6, 14)')).toMatchObject({
      type: 'datetime',
      value: Date.UTC(2025, 5, 14),
    });
    expect(printLiteral('datetime(2024,2,29)')).toMatchObject({
      type: 'datetime',
      value: Date.UTC(2024, 1, 29),
    });
    expect(printLiteral('dynamic({"a": [1, -2, "x"], "b": null})')).toMatchObject({
      type: 'dynamic',
      value: { a: [1, -2, 'x'], b: null },
    });
    expect(printLiteral('int(null)')).toMatchObject({ type: 'long', value: null });
    expect(printLiteral('dynamic(null)')).toMatchObject({ type: 'dynamic', value: null });
    expect(printLiteral('timespan(15s)')).toMatchObject({ type: 'timespan', value: 15_000 });
    expect(printLiteral('long(11)')).toMatchObject({ type: 'long', value: 11 });
  });

  it('applies precedence: and binds tighter than or, * tighter than +', () => {
    const p = firstWhere('ds | where a == 1 or b == 2 and c == 3') as BinaryExpr;
    expect(p.op).toBe('or');
    expect((p.right as BinaryExpr).op).toBe('and');
    const s = firstWhere('ds | where a + b * c > 1') as BinaryExpr;
    expect(((s.left as BinaryExpr).right as BinaryExpr).op).toBe('*');
  });

  it('parses string, set and range operators', () => {
    expect(firstWhere('ds | where a !contains "x"')).toMatchObject({ kind: 'binary', op: '!contains' });
    expect(firstWhere('ds | where a has_cs "x"')).toMatchObject({ kind: 'binary', op: 'has_cs' });
    expect(firstWhere('ds | where a matches regex "x+"')).toMatchObject({
      kind: 'binary',
      op: 'matches regex',
    });
    expect(firstWhere('ds | where a in~ ("x", "y")')).toMatchObject({ kind: 'in', op: 'in~' });
    expect(firstWhere('ds | where a !in (1, 2)')).toMatchObject({ kind: 'in', op: '!in' });
    expect(firstWhere('ds | where a !between (1 .. 2)')).toMatchObject({ kind: 'between', negated: true });
    expect(firstWhere('ds | where a <> 1')).toMatchObject({ kind: 'binary', op: '!=' });
  });

  it('parses member and index access', () => {
    const src = parseApl('print a = parse_json(s).a.b[1]').body.source as { items: { expr: unknown }[] };
    expect(src.items[0].expr).toMatchObject({
      kind: 'index',
      target: { kind: 'member', name: 'b', target: { kind: 'member', name: 'a' } },
    });
  });

  it('parses hyphenated operators', () => {
    const q = parseApl(
      'ds | project-away a, b* | project-rename x = y | mv-expand tags | parse-where m with "a" x:int *',
    );
    expect(q.body.operators.map((o) => o.kind)).toEqual([
      'project-away',
      'project-rename',
      'mv-expand',
      'parse',
    ]);
  });

  it('reports unknown operators with a suggestion', () => {
    const e = parseError("['sample-http-logs'] | frobnicate");
    expect(e.kind).toBe('invalid');
    expect(e.code).toBe('apl_unknown_operator');
    expect(e.span).toMatchObject({ line: 1, column: 24, start: 23, end: 33 });
    expect(e.message).toBe("unknown operator 'frobnicate' at 1:24");
    const s = parseError('ds | summarise count()');
    expect(s.code).toBe('apl_unknown_operator');
    expect(s.details).toMatchObject({ suggestion: 'summarize' });
  });

  it.each([
    ['ds | where (a == 1', 'apl_expected_token', 18],
    ['ds | where', 'apl_expected_token', 10],
    ['ds | where a == 1 |', 'apl_expected_token', 19],
    ['ds || count', 'apl_expected_token', 4],
    ['ds | project a,', 'apl_expected_token', 15],
    ['ds | take', 'apl_expected_token', 9],
    ['ds | top 5', 'apl_expected_token', 10],
    ['ds | sort x', 'apl_expected_token', 10],
    ['print x = "abc', 'apl_unterminated_string', 10],
    ['print x = ago(1x)', 'apl_invalid_timespan_unit', 15],
    ['print x = datetime(2024-99-99)', 'apl_invalid_datetime', 10],
    ['print x = datetime(2025, 2, 29)', 'apl_invalid_datetime', 10],
    ['print x = datetime(2025, 13, 1)', 'apl_invalid_datetime', 10],
    ['ds | join kind=sideways (ds) on id', 'apl_invalid_argument', undefined],
    ['ds | search kind=sideways "x"', 'apl_invalid_argument', 17],
    ['ds | lookup kind=fullouter (ds) on id', 'apl_invalid_argument', 17],
    ['', 'apl_empty_query', 0],
    ['ds | where a == 1 )', 'apl_unexpected_token', 18],
    ['print x = #', 'apl_unexpected_character', 10],
  ])('rejects %j with %s', (text, code, start) => {
    const e = parseError(text);
    expect(e.kind).toBe('invalid');
    expect(e.code).toBe(code);
    if (start !== undefined) expect(e.span?.start).toBe(start);
    expect(e.message).toMatch(/at \d+:\d+$/);
  });

  it('parses search kind=', () => {
    const kindOf = (text: string) =>
      (parseApl(text).body.operators[0] as { caseSensitive: boolean }).caseSensitive;
    expect(kindOf('ds | search kind=case_sensitive "x"')).toBe(true);
    expect(kindOf('ds | search kind=case_insensitive "x"')).toBe(false);
    expect(kindOf('ds | search kind=default "x"')).toBe(false);
    expect(kindOf('ds | search "x"')).toBe(false);
  });

  it('parses call arguments and typeof', () => {
    const src = parseApl('print a = extract("x(\\\\d)", 1, s, typeof(long))').body.source as {
      items: { expr: CallExpr }[];
    };
    expect(src.items[0].expr.args[3]).toMatchObject({ kind: 'typeof', type: 'long' });
  });
});
