import fc from 'fast-check';
import { isQuarryError, QuarryError } from '@quarry/common';
import { parseMpl } from './parser';

function errorOf(text: string): QuarryError {
  try {
    parseMpl(text);
  } catch (err) {
    if (isQuarryError(err)) return err;
    throw err;
  }
  throw new Error(`expected a parse error for: ${text}`);
}

describe('MPL parser', () => {
  it('parses a full pipeline with spans', () => {
    const file = parseMpl(
      'ds:`http.requests` | where code == "500" | align to 5m using prom::rate | group by service using sum',
    );
    const q = file.query;
    expect(q.kind).toBe('simple');
    if (q.kind !== 'simple') return;
    expect(q.source.metric).toBe('http.requests');
    expect(q.source.dataset).toMatchObject({ kind: 'name', name: 'ds' });
    expect(q.filters).toHaveLength(1);
    expect(q.pipes.map((p) => p.kind)).toEqual(['align', 'group']);
    expect(q.pipes[0]).toMatchObject({
      kind: 'align',
      using: 'prom::rate',
      window: { kind: 'seconds', seconds: 300 },
    });
    expect(q.pipes[1].span.column).toBe(75);
  });

  it('parses directives, params, comments and every duration unit', () => {
    const file = parseMpl(
      'set custom_unit = "ms";\nparam $ds: Dataset; // the dataset\nparam $w: duration;\n$ds:m | align to 1M using avg | align to 1y using max | align to 2w using sum',
    );
    expect(file.directives[0]).toMatchObject({ name: 'custom_unit', value: { kind: 'string', value: 'ms' } });
    expect(file.params.map((p) => [p.name, p.type])).toEqual([
      ['ds', 'Dataset'],
      ['w', 'Duration'],
    ]);
    const q = file.query;
    if (q.kind !== 'simple') throw new Error('simple');
    expect(
      q.pipes.map((p) => (p.kind === 'align' && p.window?.kind === 'seconds' ? p.window.seconds : 0)),
    ).toEqual([2592000, 31536000, 1209600]);
  });

  it('parses source ranges, aliases and sample', () => {
    const q = parseMpl('ds:m[2025-05-01T00:00:00Z..+30m] as x | sample 0.5 | where a == 1').query;
    if (q.kind !== 'simple') throw new Error('simple');
    expect(q.source.range?.start).toEqual({ kind: 'unix', seconds: 1746057600 });
    expect(q.source.range?.end).toEqual({ kind: 'modifier', seconds: 1800 });
    expect(q.source.alias).toBe('x');
    expect(q.sample).toBe(0.5);
    const open = parseMpl('ds:m[1h..]').query;
    if (open.kind !== 'simple') throw new Error('simple');
    expect(open.source.range).toMatchObject({ start: { kind: 'ago', seconds: 3600 }, end: undefined });
  });

  it('parses filters with precedence: and binds tighter than or, not applies to one clause', () => {
    const q = parseMpl('ds:m | where a == 1 or b == 2 and not c == 3').query;
    if (q.kind !== 'simple') throw new Error('simple');
    expect(q.filters[0].expr).toMatchObject({
      kind: 'or',
      items: [
        { kind: 'cmp', tag: 'a' },
        {
          kind: 'and',
          items: [
            { kind: 'cmp', tag: 'b' },
            { kind: 'not', item: { kind: 'cmp', tag: 'c' } },
          ],
        },
      ],
    });
  });

  it('decodes regex escapes: \\/ becomes / and other escapes reach the regex engine', () => {
    const q = parseMpl('ds:m | where route == #/^\\/api\\d+/ | where x is int').query;
    if (q.kind !== 'simple') throw new Error('simple');
    expect(q.filters[0].expr).toMatchObject({ kind: 'regex', pattern: '^/api\\d+', negate: false });
    expect(q.filters[1].expr).toMatchObject({ kind: 'is', tag: 'x', type: 'int' });
  });

  it('decodes backtick and string escapes', () => {
    const q = parseMpl('`a\\`b`:m | where `k\\\\` == "q\\"\\u0041"').query;
    if (q.kind !== 'simple') throw new Error('simple');
    expect(q.source.dataset).toMatchObject({ name: 'a`b' });
    expect(q.filters[0].expr).toMatchObject({ tag: 'k\\', value: { kind: 'string', value: 'q"A' } });
  });

  it('parses signed numbers and inf', () => {
    const q = parseMpl('ds:m | where x > -inf | map * -2 | map - 3 | map min(-1.5e2)').query;
    if (q.kind !== 'simple') throw new Error('simple');
    expect(q.pipes).toMatchObject([
      { op: '*', operand: -2 },
      { op: '-', operand: 3 },
      { name: 'min', arg: -150 },
    ]);
    expect(q.filters[0].expr).toMatchObject({ value: { kind: 'float', value: -Infinity } });
  });

  it('parses the documented extras: align/bucket without "to", extend, ifdef, ";" before ")" of a compute', () => {
    const file = parseMpl(`param $svc: string;
      (ds:m | ifdef($svc) { where service == $svc } | align using avg | extend env = "prod", n = 3;
       ds:m | bucket by a using histogram(count);
      ) | compute c using avg | as d`);
    const q = file.query;
    if (q.kind !== 'compute') throw new Error('compute');
    expect(q.op).toBe('avg');
    expect(q.pipes).toMatchObject([{ kind: 'as', name: 'd' }]);
    if (q.left.kind !== 'simple' || q.right.kind !== 'simple') throw new Error('simple');
    expect(q.left.filters[0].ifdef?.name).toBe('svc');
    expect(q.left.pipes).toMatchObject([
      { kind: 'align', window: undefined },
      { kind: 'extend', tags: [{ name: 'env' }, { name: 'n' }] },
    ]);
    expect(q.right.pipes[0]).toMatchObject({
      kind: 'bucket',
      by: ['a'],
      window: undefined,
      call: { fn: 'histogram', specs: [{ kind: 'count' }] },
    });
  });

  it('parses nested computes and bucket specs', () => {
    const q = parseMpl(
      '((a:m, a:n) | compute s using +, a:o | bucket to 1m using interpolate_cumulative_histogram(rate, 0.5, 0.99, count)) | compute r using /',
    ).query;
    if (q.kind !== 'compute' || q.left.kind !== 'compute' || q.right.kind !== 'simple')
      throw new Error('shape');
    expect(q.right.pipes[0]).toMatchObject({
      call: {
        mode: 'rate',
        specs: [{ kind: 'quantile', q: 0.5 }, { kind: 'quantile', q: 0.99 }, { kind: 'count' }],
      },
    });
  });

  describe('diagnostics say what and where', () => {
    const cases: [string, string, string][] = [
      ['ds:m align to 5m using avg', 'mpl_syntax', 'expected "|", found "align" at 1:6'],
      ['ds:m | align to 5x using avg', 'mpl_syntax', 'invalid duration unit "x"'],
      [
        'ds:m | align to 5m using avgg',
        'mpl_unknown_function',
        'unknown align function "avgg" (did you mean "avg"?) at 1:26',
      ],
      ['ds:m | map rat', 'mpl_unknown_function', 'unknown map function "rat" (did you mean "rate"?)'],
      ['ds:m | grop using sum', 'mpl_syntax', 'unknown pipe stage "grop" (did you mean "group"?)'],
      [
        'ds:m | group by a using sum | group by a, b using sum',
        'mpl_invalid_groups',
        'invalid groups: [a, b] is not a subset of [a] at 1:31',
      ],
      ["ds:m | where a == 'x'", 'mpl_syntax', 'single quotes'],
      ['ds:m | align to 500ms using avg', 'mpl_invalid_duration', 'window 500ms is shorter than 1s at 1:17'],
      ['ds:m | where a in [1, 2]', 'mpl_not_supported', '"in" operator'],
      ['ds:m | align to 1m over 5m using avg', 'mpl_not_supported', 'sliding windows'],
      ['ds:m | replace a ~ #s/x/y/', 'mpl_not_supported', '"replace" is not supported'],
      ['ds:m | join a from ds:n by a', 'mpl_not_supported', '"join" is not supported'],
      ['ds:m | format "x"', 'mpl_not_supported', '"format" is not supported'],
      ['ds:m | map wasm::mod::f', 'mpl_not_supported', 'WASM'],
      [
        'ds:m | align to 1m using avg | where a == 1',
        'mpl_syntax',
        '"where" must come before the first transformation',
      ],
      [
        'ds:m | bucket to 5m using interpolate_delta_histogram(rate, 0.9)',
        'mpl_histogram_mode',
        'takes no mode',
      ],
      [
        'ds:m | bucket to 5m using interpolate_cumulative_histogram(sum, 0.9)',
        'mpl_histogram_mode',
        'needs a mode',
      ],
      [
        'ds:m | bucket to 5m using interpolate_cumulative_histogram(rate, min)',
        'mpl_histogram_mode',
        '"min" is not available',
      ],
      ['ds:m | bucket to 5m using histogram(1.5)', 'mpl_invalid_value', 'quantile 1.5 is outside 0..1'],
      [
        'ds:m |',
        'mpl_syntax',
        'expected a pipe stage (map, align, group, bucket, as, extend), the query ended at 1:7',
      ],
      ['param $x: dataset; $x:m', 'mpl_param', 'unknown param type "dataset" (did you mean "Dataset"?)'],
      ['ds:m | map min', 'mpl_syntax', 'needs a number argument'],
      ['ds:m | map abs(2)', 'mpl_syntax', 'takes no argument'],
      ['(ds:m, ds:n) | compute x using pow', 'mpl_unknown_function', 'unknown compute function "pow"'],
      ['ds:m\n  | where a ==', 'mpl_syntax', 'the query ended at 2:15'],
    ];
    it.each(cases)('%s', (text, code, message) => {
      const err = errorOf(text);
      expect(err.kind).toBe('invalid');
      expect(err.code).toBe(code);
      expect(err.message).toContain(message);
      expect(err.span).toBeDefined();
    });
  });

  it('never throws anything but a QuarryError on generated text (property)', () => {
    const pieces = [
      'ds',
      ':',
      'm',
      '|',
      'where',
      'a',
      '==',
      '"x"',
      '#/r/',
      'align',
      'to',
      '5m',
      'using',
      'avg',
      'group',
      'by',
      ',',
      '(',
      ')',
      'map',
      '+',
      '1',
      'bucket',
      'histogram',
      'compute',
      'not',
      'and',
      'or',
      '$p',
      '[',
      '..',
      ']',
      '`q`',
      '0.5',
      'prom::rate',
      '\n',
      ';',
      'param',
      'set',
      '-',
    ];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 25 }),
        fc.string({ maxLength: 8 }),
        (parts, noise) => {
          const text = parts.join(' ') + noise;
          try {
            parseMpl(text);
          } catch (err) {
            if (!isQuarryError(err) || err.kind !== 'invalid') throw err;
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
