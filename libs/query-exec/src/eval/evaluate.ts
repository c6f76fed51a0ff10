/**
 * Evaluates a bound expression over a batch, producing a column. Operators have vectorized kernels;
 * scalar functions run row-wise (or once per dictionary entry when the only varying argument is a
 * dictionary-encoded string). Result kinds follow the actual column kinds of this batch, so a field whose
 * kind differs between batches still evaluates correctly.
 */
import { QuarryError } from '@quarry/common';
import type { Column, ColumnBatch, ColumnKind } from '@quarry/contracts';
import { SCALAR_SIGNATURES, type PExpr } from '@quarry/query-plan';
import { buildColumn, constantColumn, nullColumn, readValue, valueToString } from '../columns';
import { binValue } from '../functions/math';
import { SCALAR_IMPLS } from '../functions/registry';
import { arithmetic, negate } from './arithmetic';
import { compare } from './compare';
import type { EvalContext } from './context';
import { logical, not } from './logic';
import { between, membership } from './membership';
import { stringMatch } from './string-match';

/** Functions whose value differs per call: never computed once for a batch or per dictionary entry. */
const NONDETERMINISTIC = new Set(['rand']);
const ARITH = new Set(['+', '-', '*', '/', '%']);
const COMPARE = new Set(['==', '!=', '<', '<=', '>', '>=', '=~', '!~']);
const MEMBERSHIP = new Set(['in', '!in', 'in~', '!in~', 'has_any', 'has_all', 'has_any_cs', 'has_all_cs']);

export function isStringOperator(fn: string): boolean {
  const base = fn.startsWith('!') ? fn.slice(1) : fn;
  return (
    /^(contains|has|startswith|endswith|hasprefix|hassuffix)(_cs)?$/.test(base) || base === 'matches regex'
  );
}

export function evaluate(e: PExpr, batch: ColumnBatch, ctx: EvalContext): Column {
  const n = batch.length;
  switch (e.kind) {
    case 'col':
      return (
        batch.columns.get(e.name) ?? ctx.markConstant(nullColumn(e.type === 'dynamic' ? 'string' : e.type, n))
      );
    case 'lit':
      return ctx.markConstant(constantColumn(e.value, e.type, n));
    case 'row':
      return rowText(batch, e.skip);
    case 'call':
      return evaluateCall(e, batch, ctx);
  }
}

/** Every column of each row (but those in `skip`) joined as text (for `* has "x"` / `search`). */
function rowText(batch: ColumnBatch, skip: readonly string[] = []): Column {
  const n = batch.length;
  const out = new Array<string>(n).fill('');
  for (const [name, c] of batch.columns) {
    if (skip.includes(name)) continue;
    for (let i = 0; i < n; i++) {
      const v = readValue(c, i);
      if (v !== null) out[i] += '\u0001' + valueToString(v, c.kind);
    }
  }
  return buildColumn(out, 'string');
}

function evaluateCall(e: Extract<PExpr, { kind: 'call' }>, batch: ColumnBatch, ctx: EvalContext): Column {
  const n = batch.length;
  const fn = e.fn;
  // Short-circuit-free conditionals still evaluate all branches: columns are computed whole.
  const args = e.args.map((a) => evaluate(a, batch, ctx));
  const allConstant = args.length > 0 && args.every((a) => ctx.isConstant(a));
  let result: Column;
  if (ARITH.has(fn)) result = arithmetic(fn, args[0], args[1], n);
  else if (fn === 'neg') result = negate(args[0], n);
  else if (COMPARE.has(fn)) result = compare(fn, args[0], args[1], n, ctx.isConstant(args[1]));
  else if (fn === 'and' || fn === 'or') result = logical(fn, args[0], args[1], n);
  else if (fn === 'not') result = not(args[0], n);
  else if (MEMBERSHIP.has(fn)) result = membership(fn, args[0], args.slice(1), n);
  else if (fn === 'between' || fn === '!between')
    result = between(fn === '!between', args[0], args[1], args[2], n);
  else if (isStringOperator(fn)) result = stringMatch(fn, args[0], args[1], n, ctx.isConstant(args[1]));
  else if (fn === 'bin' && fastBinApplies(args, ctx))
    result = fastBin(args[0], readValue(args[1], 0) as number, n);
  else result = callScalar(fn, args, n, ctx);
  return allConstant && !NONDETERMINISTIC.has(fn) ? ctx.markConstant(result) : result;
}

function fastBinApplies(args: Column[], ctx: EvalContext): boolean {
  const k = args[0].kind;
  return (
    (k === 'datetime' || k === 'long' || k === 'real' || k === 'timespan') &&
    ctx.isConstant(args[1]) &&
    typeof readValue(args[1], 0) === 'number'
  );
}

/** `bin(x, size)` over a numeric column: the hot key of time-bucketed summaries. */
function fastBin(c: Column, size: number, n: number): Column {
  const src = c as Extract<Column, { values: Float64Array }>;
  const out = new Float64Array(n);
  let nulls: Uint8Array | null = src.nulls;
  for (let i = 0; i < n; i++) {
    const r = binValue(src.values[i], size);
    if (r === null) (nulls = nulls ? nulls.slice() : new Uint8Array(n))[i] = 1;
    else out[i] = r;
  }
  return { kind: src.kind, values: out, nulls };
}

function callScalar(fn: string, args: Column[], n: number, ctx: EvalContext): Column {
  const impl = SCALAR_IMPLS.get(fn);
  const sig = SCALAR_SIGNATURES.get(fn);
  if (!impl || !sig)
    throw new QuarryError('internal', `no implementation for function '${fn}'`, {
      code: 'exec_missing_function',
    });
  const kinds = args.map((a) => a.kind);
  const kind: ColumnKind = sig.returns(kinds);
  // Dictionary path: only one argument varies and it is a dictionary-encoded string. A function with
  // a different result per call (`rand`) never takes the shared paths: it is called once per row.
  let varying = NONDETERMINISTIC.has(fn) ? -2 : -1;
  for (let j = 0; j < args.length && varying !== -2; j++) {
    if (ctx.isConstant(args[j])) continue;
    if (varying >= 0) {
      varying = -2;
      break;
    }
    varying = j;
  }
  const vals = args.map((a) => (n > 0 ? readValue(a, 0) : null));
  if (varying >= 0 && args[varying].kind === 'string') {
    const col = args[varying] as Extract<Column, { kind: 'string' }>;
    const perCode = new Array(col.dict.length);
    for (let c = 0; c < col.dict.length; c++) {
      vals[varying] = col.dict[c];
      perCode[c] = impl(vals, kinds);
    }
    vals[varying] = null;
    const onNull = impl(vals, kinds);
    const out = new Array(n);
    for (let i = 0; i < n; i++) {
      const c = col.codes[i];
      out[i] = c < 0 ? onNull : perCode[c];
    }
    return finish(out, kind);
  }
  if (varying === -1 && n > 0) {
    // All constant: compute once.
    const v = impl(vals, kinds);
    return finish(new Array(n).fill(v), kind);
  }
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < args.length; j++) vals[j] = readValue(args[j], i);
    out[i] = impl(vals, kinds);
  }
  return finish(out, kind);
}

/** Builds the result column; when values do not fit the static kind (mixed batches), falls back to dynamic. */
function finish(values: unknown[], kind: ColumnKind): Column {
  if (kind !== 'dynamic' && !fits(values, kind)) return buildColumn(values, 'dynamic');
  return buildColumn(values, kind);
}

function fits(values: unknown[], kind: ColumnKind): boolean {
  const expected = kind === 'string' ? 'string' : kind === 'bool' ? 'boolean' : 'number';
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v === null || v === undefined) continue;
    if (typeof v !== expected) return false;
  }
  return true;
}
