/** `in`, `!in`, `in~`, `!in~`, `has_any`, `has_all`, `between`, `!between`. */
import type { BoolColumn, Column, ColumnKind } from '@quarry/contracts';
import { readValue, valueToString } from '../columns';
import { termsOf } from './terms';

function keyOf(v: unknown, kind: ColumnKind, ci: boolean): string {
  if (typeof v === 'number') return 'n' + v;
  if (typeof v === 'string') return 's' + (ci ? v.toLowerCase() : v);
  if (typeof v === 'boolean') return 'b' + v;
  return 'j' + JSON.stringify(v) + kind;
}

/** Collects the list's values; dynamic arrays are flattened (`in (dynamic([...]))`). */
function listValues(list: Column[]): { value: unknown; kind: ColumnKind }[] {
  const out: { value: unknown; kind: ColumnKind }[] = [];
  for (const c of list) {
    const v = readValue(c, 0);
    if (Array.isArray(v)) for (const x of v.flat(Infinity)) out.push({ value: x, kind: 'dynamic' });
    else if (v !== null) out.push({ value: v, kind: c.kind });
  }
  return out;
}

export function membership(op: string, left: Column, list: Column[], n: number): BoolColumn {
  const negated = op.startsWith('!');
  const base = negated ? op.slice(1) : op;
  const out = new Uint8Array(n);
  const items = listValues(list);
  if (base === 'has_any' || base === 'has_all' || base === 'has_any_cs' || base === 'has_all_cs') {
    const cs = base.endsWith('_cs');
    const needles = items.map((x) =>
      termsOf(cs ? valueToString(x.value, x.kind) : valueToString(x.value, x.kind).toLowerCase()),
    );
    const all = base.startsWith('has_all');
    for (let i = 0; i < n; i++) {
      const v = readValue(left, i);
      if (v === null) continue;
      const text = valueToString(v, left.kind);
      const terms = new Set(termsOf(cs ? text : text.toLowerCase()));
      const hit = (t: string[]) => t.length > 0 && t.every((x) => terms.has(x));
      out[i] = (all ? needles.every(hit) : needles.some(hit)) ? 1 : 0;
    }
    return { kind: 'bool', values: out, nulls: null };
  }
  const ci = base === 'in~';
  const set = new Set(items.map((x) => keyOf(x.value, x.kind, ci)));
  if (left.kind === 'string') {
    const perCode = new Uint8Array(left.dict.length);
    for (let c = 0; c < left.dict.length; c++)
      perCode[c] = set.has(keyOf(left.dict[c], 'string', ci)) !== negated ? 1 : 0;
    for (let i = 0; i < n; i++) {
      const c = left.codes[i];
      out[i] = c < 0 ? (negated ? 1 : 0) : perCode[c];
    }
    return { kind: 'bool', values: out, nulls: null };
  }
  for (let i = 0; i < n; i++) {
    const v = readValue(left, i);
    if (v === null) {
      out[i] = negated ? 1 : 0;
      continue;
    }
    out[i] = set.has(keyOf(v, left.kind, ci)) !== negated ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls: null };
}

/** `x between (lo .. hi)`, both ends inclusive; `datetime between (t .. 1h)` means `t .. t + 1h`. */
export function between(negated: boolean, x: Column, lo: Column, hi: Column, n: number): BoolColumn {
  const out = new Uint8Array(n);
  let nulls: Uint8Array | null = null;
  const spanHigh = x.kind === 'datetime' && hi.kind === 'timespan';
  for (let i = 0; i < n; i++) {
    const v = readValue(x, i);
    const a = readValue(lo, i);
    let b = readValue(hi, i);
    if (typeof v !== 'number' || typeof a !== 'number' || typeof b !== 'number') {
      if (typeof v === 'string' && typeof a === 'string' && typeof b === 'string') {
        out[i] = (v >= a && v <= b) !== negated ? 1 : 0;
        continue;
      }
      (nulls ??= new Uint8Array(n))[i] = 1;
      continue;
    }
    if (spanHigh) b = a + (b as number);
    out[i] = (v >= a && v <= (b as number)) !== negated ? 1 : 0;
  }
  return { kind: 'bool', values: out, nulls };
}
