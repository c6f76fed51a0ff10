/** Vectorized arithmetic with APL promotion rules (apl.md §3.1) and null propagation. */
import { arithmeticResultType } from '@quarry/query-plan';
import type { Column, NumericColumn } from '@quarry/contracts';
import { buildColumn, nullColumn, readValue } from '../columns';
import { kindOfValue } from '../columns';
import { NUMERIC_KINDS } from './compare';

function applyOp(op: string, a: number, b: number, integer: boolean): number {
  switch (op) {
    case '+':
      return a + b;
    case '-':
      return a - b;
    case '*':
      return a * b;
    case '/':
      if (integer) return b === 0 ? NaN : Math.trunc(a / b);
      return a / b;
    case '%':
      if (integer && b === 0) return NaN;
      return a % b;
    default:
      return NaN;
  }
}

function asNumeric(c: Column): NumericColumn | null {
  if (NUMERIC_KINDS.has(c.kind)) return c as NumericColumn;
  if (c.kind === 'bool') return { kind: 'long', values: Float64Array.from(c.values), nulls: c.nulls };
  return null;
}

export function arithmetic(op: string, left: Column, right: Column, n: number): Column {
  const a = asNumeric(left);
  const b = asNumeric(right);
  if (a && b) {
    const kind = arithmeticResultType(op, a.kind, b.kind);
    if (kind === null || kind === 'dynamic') return nullColumn('real', n);
    const integer = kind === 'long';
    const out = new Float64Array(n);
    let nulls: Uint8Array | null = null;
    const av = a.values;
    const bv = b.values;
    const an = a.nulls;
    const bn = b.nulls;
    // Hot loop: plain typed-array arithmetic; NaN marks null (division by zero in integers).
    for (let i = 0; i < n; i++) {
      if ((an !== null && an[i] === 1) || (bn !== null && bn[i] === 1)) {
        (nulls ??= new Uint8Array(n))[i] = 1;
        continue;
      }
      const r = applyOp(op, av[i], bv[i], integer);
      if (Number.isNaN(r)) (nulls ??= new Uint8Array(n))[i] = 1;
      else out[i] = r;
    }
    // Datetimes hold whole microseconds (docs/apl.md, sub-microsecond datetimes), but two of them as
    // float64 milliseconds subtract with float noise (765,432 µs came out as 765,431.9…): round back.
    if (a.kind === 'datetime' && b.kind === 'datetime') {
      for (let i = 0; i < n; i++) out[i] = Math.round(out[i] * 1000) / 1000;
    }
    return { kind: kind as NumericColumn['kind'], values: out, nulls };
  }
  // Dynamic or string operands: per row, numbers only.
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const x = readValue(left, i);
    const y = readValue(right, i);
    if (typeof x !== 'number' || typeof y !== 'number') {
      out[i] = null;
      continue;
    }
    const kx = left.kind === 'dynamic' ? kindOfValue(x) : left.kind;
    const ky = right.kind === 'dynamic' ? kindOfValue(y) : right.kind;
    const kind = arithmeticResultType(op, kx, ky);
    const r = kind === null ? NaN : applyOp(op, x, y, kind === 'long');
    out[i] = Number.isNaN(r) ? null : r;
  }
  return buildColumn(out, 'dynamic');
}

export function negate(c: Column, n: number): Column {
  if (c.kind === 'long' || c.kind === 'real' || c.kind === 'timespan') {
    const out = new Float64Array(n);
    for (let i = 0; i < n; i++) out[i] = -c.values[i];
    return { kind: c.kind, values: out, nulls: c.nulls };
  }
  const out = new Array(n);
  for (let i = 0; i < n; i++) {
    const v = readValue(c, i);
    out[i] = typeof v === 'number' ? -v : null;
  }
  return buildColumn(out, 'dynamic');
}
