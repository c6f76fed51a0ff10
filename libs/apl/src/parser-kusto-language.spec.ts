import { isLongArray, QuarryError } from '@quarry/common';
import type { Expr, Statement } from './ast';
import { parseApl, parseAplExpression } from './parser';

function errorCode(text: string): string | undefined {
  try {
    parseApl(text);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return (err as QuarryError).code;
  }
  throw new Error(`expected a parse error for: ${text}`);
}

const functionOf = (text: string) => {
  const st = parseApl(text).statements[0] as Extract<Statement, { kind: 'let-function' }>;
  expect(st.kind).toBe('let-function');
  return st.definition;
};

describe('parser: Kusto language extensions', () => {
  it('reads hex literals as longs (two’s complement over 64 bits)', () => {
    expect(parseAplExpression('0xFF')).toMatchObject({ kind: 'literal', type: 'long', value: 255 });
    expect(parseAplExpression('long(0xf)')).toMatchObject({ kind: 'literal', type: 'long', value: 15 });
    expect(parseAplExpression('0xFFFFFFFFFFFFFFFF')).toMatchObject({ value: -1 });
    expect(errorCode('print x = 0x')).toBe('apl_invalid_number');
    expect(errorCode('print x = 0xFG')).toBe('apl_invalid_number');
    expect(errorCode('print x = 0x10000000000000000')).toBe('apl_invalid_number');
  });

  it('reads scalar functions with typed parameters and trailing defaults', () => {
    const f = functionOf('let f = (a: long, b: string = "x") { let c = a * 2; c + 1 }; print f(1)');
    expect(f.params.map((p) => [p.name, p.type, p.defaultValue?.kind])).toEqual([
      ['a', 'long', undefined],
      ['b', 'string', 'literal'],
    ]);
    expect(f.statements.map((s) => s.kind)).toEqual(['let-scalar']);
    expect(f.result.kind).toBe('scalar');
    expect(errorCode('let f = (a: long = 1, b: long) { a + b }; print f(1, 2)')).toBe('apl_invalid_argument');
  });

  it('reads tabular parameters, tabular arguments, invoke, named arguments, views and materialize', () => {
    const f = functionOf('let f = (T: (x: long, y: string), U: (*), k: long) { T | where x > k }; print 1');
    expect(f.params.map((p) => [p.name, p.table?.wildcard, p.table?.columns.map((c) => c.name)])).toEqual([
      ['T', false, ['x', 'y']],
      ['U', true, []],
      ['k', undefined, undefined],
    ]);
    // Inside the body a tabular parameter is a table-parameter source, never a dataset name.
    expect(f.result).toMatchObject({
      kind: 'tabular',
      query: { source: { kind: 'table-parameter', name: 'T' } },
    });
    const call = parseApl('let f = (T: (*), k: long) { T | take k }; f(ds | where a > 1, 3)').body.source;
    expect(call).toMatchObject({
      kind: 'subquery',
      invoke: { args: [{ kind: 'in', op: 'table', subquery: { source: { name: 'ds' } } }, { value: 3 }] },
    });
    // `T | invoke f(3)` is `f(T, 3)` with T named for the first tabular parameter.
    const inv = parseApl(
      'let f = (T: (*), k: long) { T | take k }; ds | where a > 1 | invoke f(3) | count',
    ).body;
    expect(inv.source).toMatchObject({
      kind: 'subquery',
      invoke: {
        argNames: ['T', undefined],
        args: [{ op: 'table', subquery: { operators: [{ kind: 'where' }] } }, { value: 3 }],
      },
    });
    expect(inv.operators.map((o) => o.kind)).toEqual(['count']);
    // After a leading search, the searched union (with its search step) is the invoked table.
    const searched = parseApl('let f = (T: (*)) { T | count }; search "x" | invoke f() | take 1').body;
    expect(searched.source).toMatchObject({
      kind: 'subquery',
      invoke: {
        args: [{ op: 'table', subquery: { source: { kind: 'union' }, operators: [{ kind: 'search' }] } }],
      },
    });
    expect(searched.operators.map((o) => o.kind)).toEqual(['take']);
    const named = parseApl('let f = (a: long, b: long = 2) { a + b }; print f(b = 1, a = 2)').body.source;
    expect(named).toMatchObject({ kind: 'print', items: [{ expr: { kind: 'call', argNames: ['b', 'a'] } }] });
    expect(errorCode('let f = (a: long) { a }; print f(z = 1)')).toBe('apl_invalid_argument');
    // Built-in functions take arguments by position: a named one says so (it was a bare "expected ')'").
    expect(errorCode('print strlen(source = "abc")')).toBe('apl_invalid_argument');
    expect(() => parseApl('print iff(a == 1, 2, 3)')).not.toThrow();
    expect(errorCode('let f = (a: long, b: long = 2) { a + b }; print f(b = 1, 2)')).toBe(
      'apl_invalid_argument',
    );
    expect(errorCode('let f = (a: long) { a }; print range x from 1 to 3 step 1 | invoke f()')).toBeDefined();
    expect(functionOf('let v = view () { print x = 1 }; union v*').view).toBe(true);
    expect(errorCode('let v = view (a: long) { print x = a }; print 1')).toBe('apl_invalid_argument');
    expect(parseApl('let m = materialize(ds | take 1); m').statements[0]).toMatchObject({
      kind: 'let-tabular',
      query: { source: { kind: 'subquery', materialize: true, query: { source: { name: 'ds' } } } },
    });
  });

  it('reads typed literals inside dynamic(...) as their JSON values', () => {
    expect(
      parseAplExpression(
        'dynamic([long(1), int(-2), real(1.5), bool(false), guid(74BE27DE-1e4e-49d9-b579-fe0b331d3642), timespan(1d), 90m, long(null)])',
      ),
    ).toMatchObject({
      value: [1, -2, 1.5, false, '74be27de-1e4e-49d9-b579-fe0b331d3642', '1.00:00:00', '01:30:00', null],
    });
    expect(errorCode('print d = dynamic([long("x")])')).toBe('apl_invalid_dynamic');
    expect(errorCode('print d = dynamic([guid(nope)])')).toBe('apl_invalid_dynamic');
    expect(errorCode('print d = dynamic([timespan("x")])')).toBe('apl_invalid_dynamic');
    // Kusto's timespan page: `timespan(n)` is n days, so `timespan(3)` is a timespan, not an error.
    expect(parseAplExpression('dynamic([timespan(3), time(1.02:03:04), time(null)])')).toMatchObject({
      value: ['3.00:00:00', '1.02:03:04', null],
    });
  });

  it('marks a dynamic array as long when every number in it is written as an integer', () => {
    const value = (text: string) => (parseAplExpression(text) as { value: unknown }).value;
    expect(isLongArray(value('dynamic([null, 111, null, -36, long(41), int(2)])'))).toBe(true);
    expect(isLongArray(value('dynamic([null, 111.0, null, 36])'))).toBe(false);
    expect(isLongArray(value('dynamic([1, real(2)])'))).toBe(false);
    expect(isLongArray(value('dynamic([1, -2.5])'))).toBe(false);
    expect(isLongArray(value('dynamic([null, null])'))).toBe(false);
    expect(isLongArray(value('dynamic([1, "2"])'))).toBe(false);
    expect(isLongArray(value('dynamic([])'))).toBe(false);
    const nested = value('dynamic([[1, 2], [1.5], {"a": [3]}])') as [unknown, unknown, { a: unknown }];
    expect(isLongArray(nested)).toBe(false);
    expect(isLongArray(nested[0])).toBe(true);
    expect(isLongArray(nested[1])).toBe(false);
    expect(isLongArray(nested[2].a)).toBe(true);
  });

  it('reads the timespan literal forms of Kusto timespan page, raw text inside time(...) and timespan(...)', () => {
    const ms = (text: string) => (parseAplExpression(text) as { value: unknown }).value;
    expect(ms('time(0.12:34:56.7)')).toBe(((12 * 60 + 34) * 60 + 56.7) * 1000);
    expect(ms('timespan(01:02:03)')).toBe(3_723_000);
    expect(ms('time(1.02:03:04)')).toBe(93_784_000);
    expect(ms('time(29.09:00:05.12345)')).toBeCloseTo((29 * 86_400 + 9 * 3600 + 5.12345) * 1000, 6);
    expect(ms('time(0.1:00:00)')).toBe(3_600_000);
    expect(ms('time(10:30)')).toBe(37_800_000);
    expect(ms('time(-1.00:00:00)')).toBe(-86_400_000);
    expect(ms('timespan(2)')).toBe(2 * 86_400_000);
    expect(ms('timespan(15 seconds)')).toBe(15_000);
    expect(ms('timespan(2h)')).toBe(7_200_000);
    expect(ms('time(null)')).toBeNull();
    expect(parseAplExpression('time(01:02:03) + 1s')).toMatchObject({ kind: 'binary' });
    expect(errorCode('print t = time(25:00:00)')).toBe('apl_invalid_argument');
    expect(errorCode('print t = time(1.00:60:00)')).toBe('apl_invalid_argument');
    expect(errorCode('print t = time(1.00:00:00.12345678)')).toBe('apl_invalid_argument');
  });

  it('reads the special real literals real(nan), real(inf), real(+inf), real(-inf)', () => {
    expect(parseAplExpression('real(nan)')).toMatchObject({ kind: 'literal', type: 'real', value: NaN });
    expect(parseAplExpression('real(+inf)')).toMatchObject({ kind: 'literal', value: Infinity });
    expect(parseAplExpression('real(inf)')).toMatchObject({ kind: 'literal', value: Infinity });
    expect(parseAplExpression('real(-inf)')).toMatchObject({ kind: 'literal', value: -Infinity });
    // Other names stay calls (a column named nan converted to real).
    expect(parseAplExpression('real(-nan)')).toMatchObject({ kind: 'call', name: 'real' });
  });

  it('reads tabular functions, called with or without parentheses as a source', () => {
    const f = functionOf('let t = () { range x from 1 to 3 step 1 }; t | count');
    expect(f.result.kind).toBe('tabular');
    const q = parseApl('let t = (n: long) { ds | take n }; t(2) | count');
    expect(q.body.source).toMatchObject({ kind: 'subquery', invoke: { args: [{ value: 2 }] } });
    expect(parseApl('let t = () { ds }; t').body.source).toMatchObject({ kind: 'subquery' });
    // A parameter shadows a table of the same name inside the body: `{ ds }` is the scalar.
    expect(functionOf('let f = (ds: long) { ds }; print f(1)').result.kind).toBe('scalar');
  });

  it('reads toscalar of a table as an in-subquery node and of a scalar as the scalar', () => {
    const q = parseApl('let c = toscalar(ds | count); print c');
    const st = q.statements[0] as Extract<Statement, { kind: 'let-scalar' }>;
    // The first row only: `(T) | take 1`.
    expect(st.expr).toMatchObject({
      kind: 'in',
      op: 'toscalar',
      subquery: {
        source: { kind: 'subquery', query: { source: { name: 'ds' } } },
        operators: [{ kind: 'take' }],
      },
    });
    const print = parseApl('print toscalar(print x = 1)').body.source;
    expect(print).toMatchObject({ items: [{ expr: { op: 'toscalar' } }] });
    expect(parseAplExpression('toscalar(2)')).toMatchObject({ kind: 'literal', value: 2 });
  });

  it('reads range, serialize, make-series kind=nonempty and bracketed let names', () => {
    expect(parseApl('range x from 1 to 10 step 2').body.source).toMatchObject({ kind: 'range', column: 'x' });
    const ops = parseApl('ds | serialize | serialize rn = row_number()').body.operators;
    expect(ops).toMatchObject([
      { kind: 'serialize', items: [] },
      { kind: 'serialize', items: [{ name: 'rn' }] },
    ]);
    expect(
      parseApl('ds | make-series kind=nonempty count() on _time step 1h').body.operators[0],
    ).toMatchObject({ kind: 'make-series', nonempty: true });
    expect(errorCode('ds | make-series kind=dense count() on _time step 1h')).toBe('apl_invalid_argument');
    expect(parseApl("let ['a b'] = 1; print ['a b']").statements[0]).toMatchObject({ name: 'a b' });
    expect(parseApl('datatable(a: long) [1, 2, ]').body.source).toMatchObject({ values: [{}, {}] });
  });

  it('reads as hint.materialized as a bool, rejecting any other value', () => {
    const op = (q: string) => parseApl(q).body.operators[0];
    expect(op('ds | as T')).toEqual(expect.not.objectContaining({ materialized: expect.anything() }));
    expect(op('ds | as hint.materialized = true T')).toMatchObject({
      kind: 'as',
      name: 'T',
      materialized: true,
    });
    expect(op('ds | as hint.materialized=false T')).toEqual(
      expect.not.objectContaining({ materialized: expect.anything() }),
    );
    expect(errorCode('ds | as hint.materialized = 1 T')).toBe('apl_invalid_argument');
    expect(errorCode('ds | as hint.materialized = "true" T')).toBe('apl_invalid_argument');
    expect(errorCode('ds | as hint.materialized = yes T')).toBe('apl_invalid_argument');
  });

  it('reads parse-kv without delimiters and with regex=, rejecting half a delimiter pair', () => {
    const bare = parseApl('ds | parse-kv msg as (a, b: long)').body.operators[0];
    expect(bare).toMatchObject({ kind: 'parse-kv', pairDelimiter: undefined, kvDelimiter: undefined });
    const re = parseApl('ds | parse-kv msg as (a) with (regex = "(\\\\w+)=(\\\\w+)")').body.operators[0];
    expect(re).toMatchObject({ regex: '(\\w+)=(\\w+)' });
    expect(errorCode('ds | parse-kv msg as (a) with (pair_delimiter=";")')).toBe('apl_invalid_argument');
    expect(errorCode('ds | parse-kv msg as (a) with (regex="(a)(b)", greedy=true)')).toBe(
      'apl_invalid_argument',
    );
    const guid = parseApl('ds | parse-kv msg as (id: guid)').body.operators[0] as {
      keys: { type: string }[];
    };
    expect(guid.keys[0].type).toBe('string');
  });

  it('keeps window function calls as ordinary calls for the planner', () => {
    const e = parseAplExpression('row_cumsum(x, a != prev(a))') as Extract<Expr, { kind: 'call' }>;
    expect(e).toMatchObject({ kind: 'call', name: 'row_cumsum', args: [{}, { kind: 'binary' }] });
  });
});
