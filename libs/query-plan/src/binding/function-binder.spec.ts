import { parseApl, type FunctionDefinition } from '@quarry/apl';
import { QuarryError } from '@quarry/common';
import { printPlan } from '../printer';
import { plan } from '../test-helpers';
import { callsWindowFunction, withTabularLetsInlined } from './function-binder';

const definitionOf = (text: string): FunctionDefinition => {
  const st = parseApl(`${text}; print 1`).statements[0];
  if (st.kind !== 'let-function') throw new Error('no function');
  return st.definition;
};

function planError(q: string): QuarryError {
  try {
    plan(q);
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    return err as QuarryError;
  }
  throw new Error('expected an error');
}

describe('withTabularLetsInlined (window calls in scalar functions with tabular lets)', () => {
  it('replaces each use of a tabular let by its query, lets built on lets included', () => {
    const fn = definitionOf(
      'let g = (a: long) { let T = datatable(y: long)[1, 2]; let U = T | where y > 1; let k = 2; row_cumsum(a) * k + toscalar(U | count) }',
    );
    const out = withTabularLetsInlined(fn);
    expect(out.statements.map((s) => s.kind)).toEqual(['let-scalar']);
    const text = JSON.stringify(out.result);
    expect(text).not.toContain('"kind":"dataset"');
    // U's query is a subquery whose own source is T's datatable.
    expect(text).toMatch(
      /"kind":"subquery","query":\{"source":\{"kind":"subquery","query":\{"source":\{"kind":"datatable"/,
    );
  });

  it('leaves a function alone without window calls, with materialize, or with a let reading its own names', () => {
    const noWindow = definitionOf(
      'let g = (a: long) { let T = datatable(y: long)[1]; a + toscalar(T | count) }',
    );
    expect(withTabularLetsInlined(noWindow)).toBe(noWindow);
    const cached = definitionOf(
      'let g = (a: long) { let T = materialize(datatable(y: long)[1]); row_number() + toscalar(T | count) }',
    );
    expect(withTabularLetsInlined(cached)).toBe(cached);
    const param = definitionOf(
      'let g = (a: long) { let T = range y from 1 to a step 1; row_number() + toscalar(T | count) }',
    );
    expect(withTabularLetsInlined(param)).toBe(param);
    const scalarLet = definitionOf(
      'let g = (a: long) { let k = 2; let T = range y from 1 to k step 1; row_number() + toscalar(T | count) }',
    );
    expect(withTabularLetsInlined(scalarLet)).toBe(scalarLet);
  });

  it('keeps the tabular let of a nested function that defines the same name', () => {
    const fn = definitionOf(
      'let g = (a: long) { let T = datatable(y: long)[1]; let h = (b: long) { let T = datatable(y: long)[5, 6]; b + toscalar(T | count) }; h(row_number()) + toscalar(T | count) }',
    );
    const out = withTabularLetsInlined(fn);
    const h = out.statements[0];
    if (h.kind !== 'let-function') throw new Error('expected h');
    expect(h.definition.statements[0].kind).toBe('let-tabular');
    expect(JSON.stringify(h.definition.result)).toContain('"kind":"dataset","name":"T"');
    expect(JSON.stringify(out.result)).not.toContain('"kind":"dataset"');
  });

  it('finds window calls anywhere in a definition', () => {
    expect(callsWindowFunction(definitionOf('let g = (a: long) { let k = prev(a); k }'))).toBe(true);
    expect(callsWindowFunction(definitionOf('let g = (a: long) { a + 1 }'))).toBe(false);
  });

  it('plans the call as a window extend over the serialized input', () => {
    const p = plan(
      'let g = (a: long) { let T = datatable(y: long)[10, 20]; row_cumsum(a) + toscalar(T | summarize max(y)) }; ds | sort by status asc | extend c = g(toint(status))',
    );
    // The toscalar is a placeholder until runApl has run its subquery (and binds the query again).
    expect(printPlan(p.root)).toMatch(/Extend __window_0=row_cumsum\(toint\(status\)\)\n\s+Sort status asc/);
    expect(p.root.schema.find((f) => f.name === 'c')).toBeDefined();
  });

  it('refuses, with the reason, a window call in a function whose tabular let reads a parameter', () => {
    const err = planError(
      'let g = (a: long) { let T = range y from 1 to a step 1; row_cumsum(a) + toscalar(T | count) }; ds | sort by status asc | extend c = g(status)',
    );
    expect(err.code).toBe('apl_invalid_argument');
    expect(err.message).toContain('tabular parameter');
  });
});
