/**
 * Properties of the APL engine (fast-check):
 * (a) random VALID pipelines, generated from the grammar over the fields of a small dataset, run through
 *     `runApl` without throwing anything but a user error (`invalid`, with a span) — never a TypeError or
 *     an internal error; most of them actually run;
 * (b) random and mutated INVALID text always fails with a QuarryError of kind `invalid` (or `not_found` for a
 *     dataset name a mutation invented) carrying a span whose line/column lie inside the text.
 */
import fc from 'fast-check';
import { isQuarryError, type QuarryError } from '@quarry/common';
import { runApl, validateApl } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const catalog = new MemoryCatalog(
  {
    logs: [
      {
        _time: '2024-05-01T00:10:00Z',
        method: 'GET',
        path: '/api/users',
        status: 200,
        dur: 1.5,
        size: 120,
        ok: true,
        geo: { city: 'Paris' },
      },
      {
        _time: '2024-05-01T01:20:00Z',
        method: 'POST',
        path: '/api/login',
        status: 500,
        dur: 30.25,
        size: null,
        ok: false,
        geo: { city: 'Berlin' },
      },
      { _time: '2024-05-01T02:30:00Z', method: 'GET', path: '/', status: 404, dur: null, ok: true },
      {
        _time: '2024-05-01T03:40:00Z',
        method: 'DELETE',
        path: '/api/users/7',
        status: 204,
        dur: 0.1,
        size: 0,
        ok: true,
        geo: { city: 'Paris' },
      },
      { _time: '2024-05-01T05:00:00Z', method: 'put', path: '', status: 302, dur: 12, size: 9, ok: false },
    ],
  },
  { batchSize: 2 },
);

const OPTIONS = {
  startMs: Date.UTC(2024, 4, 1),
  endMs: Date.UTC(2024, 4, 2),
  nowMs: Date.UTC(2024, 4, 2),
  catalog,
};

// ---- the generator of valid queries ----

type Ty = 'long' | 'real' | 'string' | 'bool' | 'datetime';
interface Col {
  name: string;
  type: Ty;
}

const BASE_FIELDS: Col[] = [
  { name: '_time', type: 'datetime' },
  { name: 'method', type: 'string' },
  { name: 'path', type: 'string' },
  { name: 'status', type: 'long' },
  { name: 'dur', type: 'real' },
  { name: 'size', type: 'long' },
  { name: 'ok', type: 'bool' },
  { name: 'geo.city', type: 'string' },
];

const ident = (c: Col) => (/^[A-Za-z_][A-Za-z_0-9]*$/.test(c.name) ? c.name : `['${c.name}']`);
const STRINGS = ['GET', 'POST', 'api', 'Paris', '/', '', 'x y', 'users'];
const quote = (s: string) => JSON.stringify(s);

/** Imperative generation: `g(arb)` draws a value (fast-check's `fc.gen`). */
type Draw = fc.GeneratorValue;

const pick = <T>(g: Draw, xs: readonly T[]): T => xs[g(fc.nat, { max: xs.length - 1 })];
const numCols = (cols: Col[]) => cols.filter((c) => c.type === 'long' || c.type === 'real');
const strCols = (cols: Col[]) => cols.filter((c) => c.type === 'string');

function numExpr(g: Draw, cols: Col[], depth: number): string {
  const nums = numCols(cols);
  const choice = g(fc.nat, { max: depth > 0 ? 7 : 2 });
  switch (choice) {
    case 0:
      return nums.length ? ident(pick(g, nums)) : String(g(fc.integer, { min: -5, max: 500 }));
    case 1:
      return String(g(fc.integer, { min: -5, max: 500 }));
    case 2:
      return String(g(fc.double, { min: -100, max: 100, noNaN: true, noDefaultInfinity: true }).toFixed(2));
    case 3:
      return `(${numExpr(g, cols, depth - 1)} ${pick(g, ['+', '-', '*', '/', '%'])} ${numExpr(g, cols, depth - 1)})`;
    case 4:
      return `${pick(g, ['abs', 'floor', 'sign', 'toreal', 'tolong'])}(${numExpr(g, cols, depth - 1)})`;
    case 5:
      return `round(${numExpr(g, cols, depth - 1)}, ${g(fc.nat, { max: 3 })})`;
    case 6:
      return `strlen(${strExpr(g, cols, depth - 1)})`;
    default:
      return `iff(${boolExpr(g, cols, depth - 1)}, ${numExpr(g, cols, depth - 1)}, ${numExpr(g, cols, depth - 1)})`;
  }
}

function strExpr(g: Draw, cols: Col[], depth: number): string {
  const strs = strCols(cols);
  const choice = g(fc.nat, { max: depth > 0 ? 6 : 1 });
  switch (choice) {
    case 0:
      return strs.length ? ident(pick(g, strs)) : quote(pick(g, STRINGS));
    case 1:
      return quote(pick(g, STRINGS));
    case 2:
      return `${pick(g, ['tolower', 'toupper', 'trim_space', 'reverse'])}(${strExpr(g, cols, depth - 1)})`;
    case 3:
      return `strcat(${strExpr(g, cols, depth - 1)}, ${strExpr(g, cols, depth - 1)})`;
    case 4:
      return `substring(${strExpr(g, cols, depth - 1)}, ${g(fc.nat, { max: 4 })}, ${g(fc.nat, { max: 4 })})`;
    case 5:
      return `tostring(${numExpr(g, cols, depth - 1)})`;
    default:
      return `replace_string(${strExpr(g, cols, depth - 1)}, "a", "b")`;
  }
}

function boolExpr(g: Draw, cols: Col[], depth: number): string {
  const choice = g(fc.nat, { max: depth > 0 ? 9 : 5 });
  switch (choice) {
    case 0:
      return `${numExpr(g, cols, depth - 1)} ${pick(g, ['==', '!=', '<', '<=', '>', '>='])} ${numExpr(g, cols, depth - 1)}`;
    case 1: {
      const op = pick(g, [
        'contains',
        '!contains',
        'has',
        '!has',
        'startswith',
        'endswith',
        'contains_cs',
        'hasprefix',
        '=~',
        '!~',
        '==',
        '!=',
      ]);
      return `${strExpr(g, cols, depth - 1)} ${op} ${quote(pick(g, STRINGS))}`;
    }
    case 2: {
      const list = g(() => fc.uniqueArray(fc.constantFrom(...STRINGS), { minLength: 1, maxLength: 3 }));
      return `${strExpr(g, cols, depth - 1)} ${pick(g, ['in', '!in', 'in~'])} (${list.map(quote).join(', ')})`;
    }
    case 3: {
      const lo = g(fc.integer, { min: -10, max: 300 });
      return `${numExpr(g, cols, depth - 1)} ${pick(g, ['between', '!between'])} (${lo} .. ${lo + g(fc.nat, { max: 300 })})`;
    }
    case 4: {
      const any = pick(g, cols);
      return `${pick(g, ['isnull', 'isnotnull'])}(${ident(any)})`;
    }
    case 5: {
      const bools = cols.filter((c) => c.type === 'bool');
      return bools.length ? ident(pick(g, bools)) : pick(g, ['true', 'false']);
    }
    case 6:
      return `(${boolExpr(g, cols, depth - 1)}) ${pick(g, ['and', 'or'])} (${boolExpr(g, cols, depth - 1)})`;
    case 7:
      return `not(${boolExpr(g, cols, depth - 1)})`;
    case 8:
      return `${pick(g, ['isempty', 'isnotempty'])}(${strExpr(g, cols, depth - 1)})`;
    default: {
      const times = cols.filter((c) => c.type === 'datetime');
      if (!times.length) return 'true';
      return `${ident(pick(g, times))} ${pick(g, ['>', '<', '>='])} ${pick(g, ['ago(1d)', 'datetime(2024-05-01 01:00)', 'now()'])}`;
    }
  }
}

function anyExpr(g: Draw, cols: Col[]): { text: string; type: Ty } {
  switch (g(fc.nat, { max: 2 })) {
    case 0:
      return { text: numExpr(g, cols, 2), type: 'real' };
    case 1:
      return { text: strExpr(g, cols, 2), type: 'string' };
    default:
      return { text: boolExpr(g, cols, 2), type: 'bool' };
  }
}

/** One tabular operator over the columns in scope; returns its text and the columns after it. */
function operator(g: Draw, cols: Col[], fresh: () => string): { text: string; cols: Col[] } {
  const kind = pick(g, [
    'where',
    'where',
    'extend',
    'summarize',
    'sort',
    'top',
    'take',
    'project',
    'distinct',
    'count',
    'project-away',
  ]);
  switch (kind) {
    case 'where':
      return { text: `where ${boolExpr(g, cols, 2)}`, cols };
    case 'extend': {
      const n = g(fc.integer, { min: 1, max: 2 });
      const items: string[] = [];
      let out = cols;
      for (let i = 0; i < n; i++) {
        const name = fresh();
        const e = anyExpr(g, out);
        items.push(`${name} = ${e.text}`);
        out = [...out.filter((c) => c.name !== name), { name, type: e.type }];
      }
      return { text: `extend ${items.join(', ')}`, cols: out };
    }
    case 'summarize': {
      const nums = numCols(cols);
      const strs = strCols(cols);
      const aggs: { text: string; type: Ty }[] = [{ text: 'count()', type: 'long' }];
      if (nums.length) {
        const f = ident(pick(g, nums));
        aggs.push(
          { text: `sum(${f})`, type: 'real' },
          { text: `avg(${f})`, type: 'real' },
          { text: `min(${f})`, type: 'real' },
          { text: `max(${f})`, type: 'real' },
          { text: `percentile(${f}, ${pick(g, [50, 90, 99])})`, type: 'real' },
          { text: `stdev(${f})`, type: 'real' },
        );
      }
      if (strs.length) aggs.push({ text: `dcount(${ident(pick(g, strs))})`, type: 'long' });
      aggs.push({ text: `countif(${boolExpr(g, cols, 1)})`, type: 'long' });
      const chosen = g(fc.subarray, aggs, { minLength: 1, maxLength: Math.min(3, aggs.length) });
      const used = new Set<string>();
      const outAggs: Col[] = [];
      const aggText = chosen.map((a) => {
        const name = fresh();
        used.add(name);
        outAggs.push({ name, type: a.type });
        return `${name} = ${a.text}`;
      });
      const keys: { text: string; col: Col }[] = [];
      const keyChoices = g(fc.nat, { max: 2 });
      for (let i = 0; i < keyChoices; i++) {
        const c = pick(g, cols);
        if (keys.some((k) => k.col.name === c.name)) continue;
        if (c.type === 'datetime')
          keys.push({ text: `bin(${ident(c)}, ${pick(g, ['1h', '30m', '1d'])})`, col: c });
        else if (c.type === 'long' || c.type === 'real') {
          keys.push(
            g(fc.boolean)
              ? { text: `bin(${ident(c)}, ${pick(g, [1, 10, 100])})`, col: c }
              : { text: ident(c), col: c },
          );
        } else keys.push({ text: ident(c), col: c });
      }
      const by = keys.length ? ` by ${keys.map((k) => k.text).join(', ')}` : '';
      return { text: `summarize ${aggText.join(', ')}${by}`, cols: [...keys.map((k) => k.col), ...outAggs] };
    }
    case 'sort': {
      const c = pick(g, cols);
      return { text: `sort by ${ident(c)} ${pick(g, ['asc', 'desc', ''])}`.trimEnd(), cols };
    }
    case 'top': {
      const c = pick(g, cols);
      return { text: `top ${g(fc.nat, { max: 10 })} by ${ident(c)} ${pick(g, ['asc', 'desc'])}`, cols };
    }
    case 'take':
      return { text: `${pick(g, ['take', 'limit'])} ${g(fc.nat, { max: 10 })}`, cols };
    case 'project': {
      const chosen = g(fc.subarray, cols, { minLength: 1 });
      return { text: `project ${chosen.map(ident).join(', ')}`, cols: chosen };
    }
    case 'project-away': {
      if (cols.length < 2) return { text: 'take 5', cols };
      const c = pick(g, cols);
      return { text: `project-away ${ident(c)}`, cols: cols.filter((x) => x !== c) };
    }
    case 'distinct': {
      const chosen = g(fc.subarray, cols, { minLength: 1, maxLength: Math.min(2, cols.length) });
      return { text: `distinct ${chosen.map(ident).join(', ')}`, cols: chosen };
    }
    default:
      return { text: 'count', cols: [{ name: 'count', type: 'long' }] };
  }
}

const validQuery: fc.Arbitrary<string> = fc.gen().map((g) => {
  let cols = BASE_FIELDS;
  let n = 0;
  const fresh = () => `c${n++}`;
  const stages: string[] = [];
  const count = g(fc.integer, { min: 0, max: 5 });
  for (let i = 0; i < count; i++) {
    const op = operator(g, cols, fresh);
    stages.push(op.text);
    cols = op.cols;
  }
  return ['logs', ...stages].join(g(fc.constantFrom, ' | ', '\n| '));
});

// ---- checks ----

/** A span is inside the text: 1-based line/column that address a real position (or the end of a line). */
function spanInside(err: QuarryError, text: string): boolean {
  const span = err.span;
  if (!span) return false;
  const lines = text.split('\n');
  if (span.line < 1 || span.line > lines.length) return false;
  if (span.column < 1 || span.column > lines[span.line - 1].length + 1) return false;
  return span.start >= 0 && span.start <= span.end && span.end <= text.length;
}

function describe_(err: unknown): string {
  if (isQuarryError(err)) return `${err.kind}/${err.code}: ${err.message} span=${JSON.stringify(err.span)}`;
  return (err as Error)?.stack ?? String(err);
}

/** The outcome of a query that may or may not be valid: success, or a user error with a span inside the text. */
async function runOrUserError(text: string): Promise<'ok' | QuarryError> {
  try {
    await runApl(text, OPTIONS);
    return 'ok';
  } catch (err) {
    const ok =
      isQuarryError(err) && (err.kind === 'invalid' || err.kind === 'not_found') && spanInside(err, text);
    if (!ok) throw new Error(`runApl(${JSON.stringify(text)}) threw ${describe_(err)}`);
    return err as QuarryError;
  }
}

/** The text must be rejected as invalid with a span inside it (and validateApl must agree on the kind). */
async function mustBeInvalid(text: string): Promise<QuarryError> {
  const outcome = await runOrUserError(text);
  if (outcome === 'ok' || outcome.kind !== 'invalid')
    throw new Error(
      `expected ${JSON.stringify(text)} to be invalid, got ${outcome === 'ok' ? 'ok' : describe_(outcome)}`,
    );
  if (!outcome.message.includes(`at ${outcome.span!.line}:${outcome.span!.column}`))
    throw new Error(`message of ${JSON.stringify(text)} lacks its position: ${outcome.message}`);
  return outcome;
}

describe('APL properties', () => {
  it('random valid pipelines never crash the engine, and most of them run', async () => {
    let ran = 0;
    let total = 0;
    const rejected: string[] = [];
    await fc.assert(
      fc.asyncProperty(validQuery, async (text) => {
        total++;
        const outcome = await runOrUserError(text);
        if (outcome === 'ok') ran++;
        else {
          if (outcome.kind !== 'invalid') throw new Error(`${text}: ${describe_(outcome)}`);
          rejected.push(`${text}\n  → ${outcome.message}`);
        }
      }),
      { numRuns: 600 },
    );
    // The generator tracks columns and types; a rare rejection (a type rule it does not model) is
    // allowed, a systematic one means the generator or the engine is wrong.
    if (ran < total * 0.95)
      throw new Error(`only ${ran}/${total} ran; e.g.\n${rejected.slice(0, 5).join('\n')}`);
  });

  it('random text fails only with a user error that has a span inside the text', async () => {
    const text = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc
        .array(
          fc.constantFrom(
            'logs',
            '|',
            'where',
            'summarize',
            'by',
            '(',
            ')',
            '"a"',
            '==',
            '1',
            'status',
            ',',
            '\n',
            ' ',
          ),
          { maxLength: 12 },
        )
        .map((xs) => xs.join(' ')),
    );
    await fc.assert(
      fc.asyncProperty(text, async (t) => void (await runOrUserError(t))),
      { numRuns: 1500 },
    );
  });

  it('mutations of valid queries fail only with a user error that has a span', async () => {
    const mutated = fc
      .record({
        base: validQuery,
        at: fc.nat(),
        cut: fc.nat({ max: 8 }),
        insert: fc.string({ maxLength: 4 }),
      })
      .map(({ base, at, cut, insert }) => {
        const i = at % (base.length + 1);
        return base.slice(0, i) + insert + base.slice(i + cut);
      });
    await fc.assert(
      fc.asyncProperty(mutated, async (t) => void (await runOrUserError(t))),
      { numRuns: 800 },
    );
  });

  it('breaking edits always yield invalid with a span (and validateApl rejects them too)', async () => {
    const BREAKS: ((q: string) => string)[] = [
      (q) => `${q} | frobnicate`,
      (q) => `${q} |`,
      (q) => `${q} | where`,
      (q) => `${q} | take`,
      (q) => `${q} | top 5`,
      (q) => `${q} | sort`,
      (q) => `${q})`,
      (q) => `(${q}`,
      (q) => `${q} | where "abc`,
      (q) => `${q} | where 1 # 2`,
      (q) => `${q} | extend x = ago(1x)`,
      (q) => `${q} | extend x = strlen("a", "b")`,
      (q) => `${q} | where count() > 1`,
      (q) => `${q} | summarize strlen("a") by x = 1`,
      (q) => `${q} | extend = 1`,
      (q) => `${q} | project ,`,
      (q) => `${q} | join kind=sideways (logs) on method`,
      (q) => `${q} | where "a" matches regex "("`,
      (q) => `${q} || count`,
      (q) => `${q} | extend y = dynamic([1,`,
      (q) => `${q} | project no_such_field_here`,
      (q) => `${q} | extend x = coutn()`,
      (q) => `${q} | WHERE true`,
      () => `// only a comment\n`,
    ];
    const broken = fc.tuple(validQuery, fc.nat({ max: BREAKS.length - 1 })).map(([q, i]) => BREAKS[i](q));
    await fc.assert(
      fc.asyncProperty(broken, async (t) => {
        await mustBeInvalid(t);
        try {
          validateApl(t);
        } catch (err) {
          if (!isQuarryError(err) || err.kind !== 'invalid' || !spanInside(err, t))
            throw new Error(`validateApl(${JSON.stringify(t)}) threw ${describe_(err)}`);
          return;
        }
        // Without schemas unknown fields are accepted; everything else must be caught statically.
        if (!/no_such_field_here/.test(t)) throw new Error(`validateApl accepted ${JSON.stringify(t)}`);
      }),
      { numRuns: 400 },
    );
  });

  it('a misspelled operator is rejected with a suggestion of the intended one', async () => {
    const OPS: Record<string, string> = {
      where: 'where true',
      extend: 'extend z = 1',
      summarize: 'summarize count()',
      project: 'project _time',
      distinct: 'distinct _time',
      take: 'take 1',
    };
    const typo = fc
      .tuple(validQuery, fc.constantFrom(...Object.keys(OPS)), fc.nat())
      .map(([base, pickOp, k]) => {
        const found = [...base.matchAll(/\| (where|extend|summarize|project|distinct|take)(?![-\w])/g)];
        const q = found.length ? base : `${base} | ${OPS[pickOp]}`;
        const ops = found.length
          ? found
          : [...q.matchAll(/\| (where|extend|summarize|project|distinct|take)(?![-\w])/g)];
        const m = ops[k % ops.length];
        const op = m[1];
        // Swap two adjacent, different letters: one Damerau-Levenshtein edit.
        let i = k % (op.length - 1);
        while (op[i] === op[i + 1]) i = (i + 1) % (op.length - 1);
        const bad = op.slice(0, i) + op[i + 1] + op[i] + op.slice(i + 2);
        const at = m.index! + 2;
        return { text: q.slice(0, at) + bad + q.slice(at + op.length), op, bad };
      });
    await fc.assert(
      fc.asyncProperty(typo, async ({ text, op, bad }) => {
        const err = await mustBeInvalid(text);
        expect(err.code).toBe('apl_unknown_operator');
        expect(err.message).toContain(`unknown operator '${bad}'`);
        expect(err.message).toContain(`; did you mean '${op}'?`);
      }),
      { numRuns: 150 },
    );
  });
});
