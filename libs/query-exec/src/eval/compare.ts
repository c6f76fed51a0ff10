/**
 * Comparisons with APL null rules (apl.md §3.2): `==` with one null side is false, `!=` with exactly one
 * null side is true, both null → null; ordering comparisons with a null side are null.
 */
import type { BoolColumn, Column, ColumnKind, NumericColumn } from '@quarry/contracts';
import { readValue, valueToString } from '../columns';

export const NUMERIC_KINDS = new Set<ColumnKind>(['long', 'real', 'datetime', 'timespan']);

function numericCompare(op: string, a: NumericColumn, b: NumericColumn, n: number): BoolColumn {
  const out = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  const av = a.values;
  const bv = b.values;
  for (let i = 0; i < n; i++) {
    const an = a.nulls !== null && a.nulls[i] === 1;
    const bn = b.nulls !== null && b.nulls[i] === 1;
    if (an || bn) {
      const r = nullResult(op, an, bn);
      if (r === null) (nulls ??= new Uint8Array(n))[i] = 1;
      else out[i] = r ? 1 : 0;
      continue;
    }
    out[i] = orderResult(op, av[i] < bv[i] ? -1 : av[i] > bv[i] ? 1 : 0) ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls };
}

export function nullResult(op: string, leftNull: boolean, rightNull: boolean): boolean | null {
  if (leftNull && rightNull) return null;
  if (op === '==' || op === '=~') return false;
  if (op === '!=' || op === '!~') return true;
  return null;
}

export function orderResult(op: string, cmp: number): boolean {
  switch (op) {
    case '==':
    case '=~':
      return cmp === 0;
    case '!=':
    case '!~':
      return cmp !== 0;
    case '<':
      return cmp < 0;
    case '<=':
      return cmp <= 0;
    case '>':
      return cmp > 0;
    case '>=':
      return cmp >= 0;
    default:
      return false;
  }
}

export function strCmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Compares two JS values of (possibly different) kinds; null when not comparable. */
function compareValues(op: string, x: unknown, kx: ColumnKind, y: unknown, ky: ColumnKind): boolean | null {
  const xn = x === null || x === undefined;
  const yn = y === null || y === undefined;
  if (xn || yn) return nullResult(op, xn, yn);
  const ci = op === '=~' || op === '!~';
  if (ci) {
    return orderResult(op, strCmp(valueToString(x, kx).toLowerCase(), valueToString(y, ky).toLowerCase()));
  }
  if (typeof x === 'number' && typeof y === 'number') return orderResult(op, x < y ? -1 : x > y ? 1 : 0);
  if (typeof x === 'string' && typeof y === 'string') return orderResult(op, strCmp(x, y));
  if (typeof x === 'boolean' && typeof y === 'boolean') return orderResult(op, x === y ? 0 : x ? 1 : -1);
  if (op === '==' || op === '!=') {
    const same = typeof x === 'object' && typeof y === 'object' && JSON.stringify(x) === JSON.stringify(y);
    return op === '==' ? same : !same;
  }
  return null;
}

/** `rightConstant`: the right side is one value repeated (a literal), which allows dictionary-only work. */
export function compare(
  op: string,
  left: Column,
  right: Column,
  n: number,
  rightConstant = false,
): BoolColumn {
  if (NUMERIC_KINDS.has(left.kind) && NUMERIC_KINDS.has(right.kind)) {
    return numericCompare(op, left as NumericColumn, right as NumericColumn, n);
  }
  if (left.kind === 'string' && right.kind === 'string') {
    if (rightConstant && right.dict.length === 1 && n > 0 && right.codes[0] === 0)
      return stringCompareConstant(op, left.codes, left.dict, right.dict[0], n);
    return stringCompare(op, left.codes, left.dict, right.codes, right.dict, n);
  }
  const out = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const x = readValue(left, i);
    const y = readValue(right, i);
    const r = compareValues(op, x, left.kind, y, right.kind);
    if (r === null) (nulls ??= new Uint8Array(n))[i] = 1;
    else out[i] = r ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls };
}

/** A string column against one non-null value: one comparison per dictionary entry, then a lookup per row. */
function stringCompareConstant(
  op: string,
  codes: Int32Array,
  dict: string[],
  value: string,
  n: number,
): BoolColumn {
  const ci = op === '=~' || op === '!~';
  const target = ci ? value.toLowerCase() : value;
  const perCode = new Uint8Array(dict.length);
  for (let c = 0; c < dict.length; c++)
    perCode[c] = orderResult(op, strCmp(ci ? dict[c].toLowerCase() : dict[c], target)) ? 1 : 0;
  const out = new Uint8Array(n);
  const onNull = nullResult(op, true, false);
  let nulls: Uint8Array | null = null;
  for (let i = 0; i < n; i++) {
    const code = codes[i];
    if (code >= 0) out[i] = perCode[code];
    else if (onNull === null) (nulls ??= new Uint8Array(n))[i] = 1;
    else out[i] = onNull ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls };
}

/** String comparison: when the right side is one value, each dictionary entry is compared once. */
function stringCompare(
  op: string,
  lc: Int32Array,
  ld: string[],
  rc: Int32Array,
  rd: string[],
  n: number,
): BoolColumn {
  const out = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  const ci = op === '=~' || op === '!~';
  const norm = (s: string) => (ci ? s.toLowerCase() : s);
  if (rd.length === 1) {
    const target = norm(rd[0]);
    const perCode = new Int8Array(ld.length);
    for (let c = 0; c < ld.length; c++) perCode[c] = orderResult(op, strCmp(norm(ld[c]), target)) ? 1 : 0;
    for (let i = 0; i < n; i++) {
      const a = lc[i];
      const b = rc[i];
      if (a < 0 || b < 0) {
        const r = nullResult(op, a < 0, b < 0);
        if (r === null) (nulls ??= new Uint8Array(n))[i] = 1;
        else out[i] = r ? 1 : 0;
        continue;
      }
      out[i] = perCode[a];
    }
    return { kind: 'bool', values: out, nulls };
  }
  for (let i = 0; i < n; i++) {
    const a = lc[i];
    const b = rc[i];
    if (a < 0 || b < 0) {
      const r = nullResult(op, a < 0, b < 0);
      if (r === null) (nulls ??= new Uint8Array(n))[i] = 1;
      else out[i] = r ? 1 : 0;
      continue;
    }
    out[i] = orderResult(op, strCmp(norm(ld[a]), norm(rd[b]))) ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls };
}
