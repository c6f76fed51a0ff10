import { QuarryError } from '@quarry/common';
import type { Expr, Operator, TabularSource } from './ast';
import { parseApl, parseAplExpression } from './parser';

const ops = (text: string): Operator[] => parseApl(text).body.operators;
const firstOp = (text: string): Operator => ops(text)[0];
const unionTables = (text: string): TabularSource[] => {
  const src = parseApl(text).body.source;
  if (src.kind !== 'union') throw new Error('not a union');
  return src.tables.map((t) => t.source);
};

function errorCode(text: string): string | undefined {
  try {
    parseApl(text);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return (err as QuarryError).code;
  }
  throw new Error(`expected a parse error for: ${text}`);
}

describe('parser: dataset patterns and leading search', () => {
  it('reads touching name pieces with * as a pattern, quoted names with * too', () => {
    expect(unionTables("union logs*, *, web-*, ['a*b'], plain, web-logs")).toEqual([
      expect.objectContaining({ kind: 'dataset-pattern', pattern: 'logs*' }),
      expect.objectContaining({ kind: 'dataset-pattern', pattern: '*' }),
      expect.objectContaining({ kind: 'dataset-pattern', pattern: 'web-*' }),
      expect.objectContaining({ kind: 'dataset-pattern', pattern: 'a*b' }),
      expect.objectContaining({ kind: 'dataset', name: 'plain' }),
      expect.objectContaining({ kind: 'dataset', name: 'web-logs' }),
    ]);
  });

  it('turns a leading search into a union with $table and a search operator', () => {
    const q = parseApl('search kind=case_sensitive in (a, b*) "x" | count');
    expect(q.body.source).toMatchObject({ kind: 'union', withSource: '$table' });
    expect(unionTables('search in (a, b*) "x"').map((s) => s.kind)).toEqual(['dataset', 'dataset-pattern']);
    expect(q.body.operators.map((o) => o.kind)).toEqual(['search', 'count']);
    expect(q.body.operators[0]).toMatchObject({ caseSensitive: true });
    expect(unionTables('search "x"')).toEqual([expect.objectContaining({ pattern: '*' })]);
  });

  it('parses Field:"term" and prefix not only inside search predicates', () => {
    const op = firstOp('ds | search host:"web" and not "x"');
    if (op.kind !== 'search') throw new Error('not a search');
    expect(op.predicate).toMatchObject({
      kind: 'binary',
      op: 'and',
      left: { kind: 'binary', op: ':', left: { kind: 'name', name: 'host' } },
      right: { kind: 'call', name: 'not' },
    });
    expect(errorCode('ds | where host:"web"')).toBe('apl_unexpected_token');
    expect(errorCode('ds | search in (a) "x"')).toBe('apl_invalid_argument');
  });
});

describe('parser: find', () => {
  const findOf = (text: string) => {
    const src = parseApl(text).body.source;
    if (src.kind !== 'find') throw new Error(`not a find: ${src.kind}`);
    return src;
  };

  it('reads withsource, in (tables), where and a projection, then the pipe', () => {
    const q = parseApl(
      'find withsource=T in (a, b*, (c | take 1)) where x == 1 project y: long, z, pack_all() | count',
    );
    const src = findOf(
      'find withsource=T in (a, b*, (c | take 1)) where x == 1 project y: long, z, pack_all()',
    );
    expect(src.withSource).toBe('T');
    expect(src.tables.map((t) => t.source.kind)).toEqual(['dataset', 'dataset-pattern', 'dataset']);
    expect(src.tables[2].operators.map((o) => o.kind)).toEqual(['take']);
    expect(src.predicate).toMatchObject({ kind: 'binary', op: '==' });
    expect(src.projection).toEqual({
      kind: 'project',
      columns: [expect.objectContaining({ name: 'y', type: 'long' }), expect.objectContaining({ name: 'z' })],
      packAll: true,
    });
    expect(q.body.operators.map((o) => o.kind)).toEqual(['count']);
  });

  it('defaults to every dataset, source_ and project-smart; where is optional without in', () => {
    for (const text of ['find "x"', 'find where "x"', 'find "x" project-smart']) {
      const src = findOf(text);
      expect(src.withSource).toBe('source_');
      expect(src.tables).toEqual([
        expect.objectContaining({ source: expect.objectContaining({ pattern: '*' }) }),
      ]);
      expect(src.projection).toEqual({ kind: 'smart' });
    }
  });

  it('keeps a dataset called find, and needs where after in (...)', () => {
    expect(parseApl('find | count').body.source).toMatchObject({ kind: 'dataset', name: 'find' });
    expect(errorCode('find in (a) x == 1')).toBe('apl_expected_token');
    expect(errorCode('find x == 1 project y: nosuchtype')).toBe('apl_expected_token');
    expect(errorCode('find x == 1 project-away y')).toBe('apl_expected_token');
  });
});

describe('parser: new operators and literals', () => {
  it('in with a tabular subquery (parenthesised query, let-bound table, datatable)', () => {
    const inOf = (text: string) => {
      const op = ops(text).find((o) => o.kind === 'where');
      if (!op || op.kind !== 'where') throw new Error('no where');
      return op.predicate as Extract<Expr, { kind: 'in' }>;
    };
    expect(inOf('ds | where a in ((t | project b))').subquery).toBeDefined();
    expect(inOf('ds | where a !in (t | project b)').subquery).toBeDefined();
    expect(parseApl('let t = ds; ds | where a in (t)').body.operators[0]).toMatchObject({
      predicate: { kind: 'in', subquery: { source: { kind: 'dataset', name: 't' } } },
    });
    expect(inOf('ds | where a in (datatable(x:long)[1])').subquery).toBeDefined();
    expect(inOf('ds | where a in (b, "c")').subquery).toBeUndefined();
  });

  it('extend-valid, parse-kv, redact', () => {
    expect(firstOp('ds | extend-valid a = b')).toMatchObject({ kind: 'extend', valid: true });
    expect(
      firstOp(
        'ds | parse-kv m as (a:long, b) with (pair_delimiter=";", kv_delimiter=":", quote="\'", greedy=true)',
      ),
    ).toMatchObject({
      kind: 'parse-kv',
      keys: [
        { name: 'a', type: 'long' },
        { name: 'b', type: 'string' },
      ],
      pairDelimiter: ';',
      kvDelimiter: ':',
      quote: "'",
      greedy: true,
    });
    expect(firstOp('ds | redact replaceToken="#" redactGroups=true "a(b)", "c" on x, y')).toMatchObject({
      kind: 'redact',
      replaceToken: '#',
      redactGroups: true,
      patterns: [{ pattern: 'a(b)' }, { pattern: 'c' }],
      on: [{ name: 'x' }, { name: 'y' }],
    });
    expect(errorCode('ds | redact replaceHash=true "a"')).toBe('apl_unsupported');
    expect(errorCode('ds | redact replaceTokn="#" "a"')).toBe('apl_invalid_argument');
    expect(errorCode('externaldata (a:string) ["https://x"]')).toBe('apl_unsupported');
  });

  it('mv-expand with several columns and project-reorder orders', () => {
    expect(firstOp('ds | mv-expand bagexpansion=array a to typeof(long), b = c limit 3')).toMatchObject({
      kind: 'mv-expand',
      bagExpansion: 'array',
      limit: 3,
      items: [{ toType: 'long' }, { name: 'b' }],
    });
    const reorder = firstOp('ds | project-reorder a* granny-desc, *_id asc, b');
    if (reorder.kind !== 'project-reorder') throw new Error('not project-reorder');
    expect(reorder.patterns.map((p) => [p.pattern, p.wildcard, p.order])).toEqual([
      ['a*', true, 'granny-desc'],
      ['*_id', true, 'asc'],
      ['b', false, undefined],
    ]);
  });

  it('``` strings span lines without escapes; bare null is a null literal', () => {
    const src = parseApl('print s = ```a\n"b"\\n```, n = null').body.source;
    if (src.kind !== 'print') throw new Error('not print');
    expect(src.items[0].expr).toMatchObject({ kind: 'literal', type: 'string', value: 'a\n"b"\\n' });
    expect(src.items[1].expr).toMatchObject({ kind: 'literal', type: 'dynamic', value: null });
    expect(errorCode('print s = ```abc')).toBe('apl_unterminated_string');
  });

  it('parseAplExpression parses one expression and rejects trailing text', () => {
    expect(parseAplExpression('a + 1')).toMatchObject({ kind: 'binary', op: '+' });
    expect(() => parseAplExpression('a + 1 b')).toThrow(QuarryError);
    expect(() => parseAplExpression('')).toThrow(QuarryError);
  });
});
