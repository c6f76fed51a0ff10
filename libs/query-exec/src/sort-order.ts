/**
 * Row ordering for sort/top: a stable index sort over precomputed key columns. Strings compare by
 * ordinal (code point) order through per-dictionary ranks; nulls go first or last per key.
 */
import type { Column } from '@quarry/contracts';
import { readValue } from './columns';

export interface OrderKey {
  column: Column;
  desc: boolean;
  nullsFirst: boolean;
}

type Comparer = (a: number, b: number) => number;

function keyComparer(k: OrderKey): Comparer {
  const dir = k.desc ? -1 : 1;
  const nullOrder = k.nullsFirst ? -1 : 1;
  const c = k.column;
  if (c.kind === 'string') {
    const order = c.dict
      .map((_, i) => i)
      .sort((x, y) => (c.dict[x] < c.dict[y] ? -1 : c.dict[x] > c.dict[y] ? 1 : 0));
    const rank = new Int32Array(c.dict.length);
    order.forEach((code, r) => (rank[code] = r));
    return (a, b) => {
      const ca = c.codes[a];
      const cb = c.codes[b];
      if (ca < 0 || cb < 0) return ca < 0 && cb < 0 ? 0 : ca < 0 ? nullOrder : -nullOrder;
      return (rank[ca] - rank[cb]) * dir;
    };
  }
  if (c.kind === 'dynamic') {
    return (a, b) => {
      const x = readValue(c, a);
      const y = readValue(c, b);
      if (x === null || y === null) return x === null && y === null ? 0 : x === null ? nullOrder : -nullOrder;
      if (typeof x === 'number' && typeof y === 'number') return (x - y) * dir;
      const sx = typeof x === 'string' ? x : JSON.stringify(x);
      const sy = typeof y === 'string' ? y : JSON.stringify(y);
      return (sx < sy ? -1 : sx > sy ? 1 : 0) * dir;
    };
  }
  const values = c.values;
  const nulls = c.nulls;
  return (a, b) => {
    const na = nulls !== null && nulls[a] === 1;
    const nb = nulls !== null && nulls[b] === 1;
    if (na || nb) return na && nb ? 0 : na ? nullOrder : -nullOrder;
    const x = values[a];
    const y = values[b];
    return (x < y ? -1 : x > y ? 1 : 0) * dir;
  };
}

/** Row indexes of `n` rows in sorted order (stable). */
export function sortedIndexes(n: number, keys: OrderKey[]): Uint32Array {
  const comparers = keys.map(keyComparer);
  const idx = Array.from({ length: n }, (_, i) => i);
  idx.sort((a, b) => {
    for (const cmp of comparers) {
      const r = cmp(a, b);
      if (r !== 0) return r;
    }
    return a - b;
  });
  return Uint32Array.from(idx);
}
