/** Three-valued `and` / `or` / `not` over bool columns (Kusto: `false and null` = false, `true or null` = true). */
import type { BoolColumn, Column } from '@quarry/contracts';
import { readValue } from '../columns';

/** Reads any column as a three-valued bool column (non-bools are null). */
export function asBool(c: Column, n: number): BoolColumn {
  if (c.kind === 'bool') return c;
  const values = new Uint8Array(n);
  const nulls = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const v = readValue(c, i);
    if (typeof v === 'boolean') values[i] = v ? 1 : 0;
    else nulls[i] = 1;
  }
  return { kind: 'bool', values, nulls };
}

export function logical(op: 'and' | 'or', left: Column, right: Column, n: number): BoolColumn {
  const a = asBool(left, n);
  const b = asBool(right, n);
  const out = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  const isAnd = op === 'and';
  for (let i = 0; i < n; i++) {
    const an = a.nulls !== null && a.nulls[i] === 1;
    const bn = b.nulls !== null && b.nulls[i] === 1;
    const av = a.values[i];
    const bv = b.values[i];
    if (isAnd) {
      if ((!an && av === 0) || (!bn && bv === 0)) out[i] = 0;
      else if (an || bn) (nulls ??= new Uint8Array(n))[i] = 1;
      else out[i] = 1;
    } else {
      if ((!an && av === 1) || (!bn && bv === 1)) out[i] = 1;
      else if (an || bn) (nulls ??= new Uint8Array(n))[i] = 1;
      else out[i] = 0;
    }
  }
  return { kind: 'bool', values: out, nulls };
}

export function not(c: Column, n: number): BoolColumn {
  const a = asBool(c, n);
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = a.values[i] ? 0 : 1;
  return { kind: 'bool', values: out, nulls: a.nulls };
}
