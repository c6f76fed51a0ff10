import { isNullish, str, toDynamic, type ScalarImpl } from './scalar-impl';

function keyOf(v: unknown): string {
  return typeof v === 'string' ? 's' + v : 'j' + JSON.stringify(v);
}

function distinct(values: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const v of values) {
    const k = keyOf(v);
    if (!seen.has(k)) {
      seen.add(k);
      out.push(v);
    }
  }
  return out;
}

/** `d.key` / `d["key"]` / `d[i]` (negative i counts from the end); missing → null. */
export function accessDynamic(target: unknown, key: unknown): unknown {
  if (isNullish(target)) return null;
  let t = target;
  if (typeof t === 'string' && (t.startsWith('{') || t.startsWith('['))) {
    try {
      t = JSON.parse(t);
    } catch {
      return null;
    }
  }
  if (Array.isArray(t)) {
    if (typeof key !== 'number') return null;
    const i = key < 0 ? t.length + key : key;
    const v = t[Math.trunc(i)];
    return v === undefined ? null : v;
  }
  if (t !== null && typeof t === 'object') {
    const v = (t as Record<string, unknown>)[String(key)];
    return v === undefined ? null : v;
  }
  return null;
}

/**
 * `array_index_of(a, v [, start [, length [, occurrence]]])` (Kusto): the index of the `occurrence`-th
 * (default 1st) element equal to `v` among `length` elements (default / -1: all) from `start` (default 0;
 * negative counts from the end); -1 when absent; null for a non-array or a start past the end.
 */
function arrayIndexOf([a, v, start, length, occurrence]: unknown[]): unknown {
  if (!Array.isArray(a)) return null;
  let from = typeof start === 'number' ? Math.trunc(start) : 0;
  if (from < 0) from = Math.max(0, a.length + from);
  if (from > a.length) return null;
  const count = typeof length === 'number' && length >= 0 ? Math.trunc(length) : a.length;
  const end = Math.min(a.length, from + count);
  const nth = typeof occurrence === 'number' ? Math.trunc(occurrence) : 1;
  if (nth < 1) return null;
  const key = keyOf(v);
  let seen = 0;
  for (let i = from; i < end; i++) if (keyOf(a[i]) === key && ++seen === nth) return i;
  return -1;
}

export const DYNAMIC_FUNCTIONS: Record<string, ScalarImpl> = {
  getprop: ([t, k]) => accessDynamic(t, k),
  index: ([t, k]) => accessDynamic(t, k),
  array_length: ([v]) => (Array.isArray(v) ? v.length : null),
  len: ([v], [k]) => (Array.isArray(v) ? v.length : isNullish(v) ? null : [...(str(v, k) ?? '')].length),
  pack_array: (args, kinds) => args.map((a, i) => toDynamic(a, kinds[i])),
  bag_pack: (args, kinds) => {
    const out: Record<string, unknown> = {};
    for (let i = 0; i + 1 < args.length; i += 2) out[String(args[i])] = toDynamic(args[i + 1], kinds[i + 1]);
    return out;
  },
  // `bag_pack_sparse(omitNull, omitEmpty, k1, v1, …)`: `pack_all(true)` and `find`'s `pack_` leave out
  // null values (and with omitEmpty, empty strings).
  bag_pack_sparse: (args, kinds) => {
    const omitNull = args[0] === true;
    const omitEmpty = args[1] === true;
    const out: Record<string, unknown> = {};
    for (let i = 2; i + 1 < args.length; i += 2) {
      const v = toDynamic(args[i + 1], kinds[i + 1]);
      if ((omitNull || omitEmpty) && (v === null || v === undefined)) continue;
      if (omitEmpty && v === '') continue;
      out[String(args[i])] = v;
    }
    return out;
  },
  array_concat: (args) => (args.every(Array.isArray) ? (args as unknown[][]).flat(1) : null),
  array_reverse: ([v]) => (Array.isArray(v) ? [...v].reverse() : null),
  array_sort_asc: (args) => arraySort(args, 1),
  array_sort_desc: (args) => arraySort(args, -1),
  array_sum: ([v]) => {
    if (!Array.isArray(v) || v.length === 0) return null;
    // Kusto's page: an element of a non-numeric type makes the sum null (null elements are skipped).
    let s = 0;
    for (const x of v) {
      if (typeof x === 'number') s += x;
      else if (x !== null && x !== undefined) return null;
    }
    return s;
  },
  array_slice: ([v, a, b]) => {
    if (!Array.isArray(v) || typeof a !== 'number' || typeof b !== 'number') return null;
    const n = v.length;
    const from = a < 0 ? n + a : a;
    const to = b < 0 ? n + b : b;
    return v.slice(from, to + 1);
  },
  array_index_of: (args) => arrayIndexOf(args),
  set_union: (args) => (args.every(Array.isArray) ? distinct((args as unknown[][]).flat(1)) : null),
  set_intersect: (args) => {
    if (!args.every(Array.isArray)) return null;
    const [first, ...rest] = args as unknown[][];
    const sets = rest.map((r) => new Set(r.map(keyOf)));
    return distinct(first.filter((x) => sets.every((s) => s.has(keyOf(x)))));
  },
  set_difference: (args) => {
    if (!args.every(Array.isArray)) return null;
    const [first, ...rest] = args as unknown[][];
    const drop = new Set(rest.flat(1).map(keyOf));
    return distinct(first.filter((x) => !drop.has(keyOf(x))));
  },
  set_has_element: ([v, x]) => (Array.isArray(v) ? v.some((e) => keyOf(e) === keyOf(x)) : null),
  bag_keys: ([v]) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.keys(v) : null),
  bag_has_key: ([v, k]) => bagHasKey(v, k),
  treepath: ([v]) => treePaths(v),
  // Kusto bag functions (Quarry extensions, docs/apl.md "Kusto function extensions").
  bag_merge: (args) => {
    // The first bag that has a key gives its value (Kusto: "an arbitrary value"; its example keeps the first).
    const out: Record<string, unknown> = {};
    for (const a of args) {
      if (!isBag(a)) continue;
      for (const [k, v] of Object.entries(a)) if (!Object.prototype.hasOwnProperty.call(out, k)) out[k] = v;
    }
    return out;
  },
  bag_remove_keys: ([v, keys]) => {
    if (!isBag(v) || !Array.isArray(keys)) return null;
    const out = structuredClone(v);
    for (const key of keys) {
      if (typeof key !== 'string') continue;
      const steps = key.startsWith('$') ? jsonPathKeys(key) : [key];
      if (steps === null) continue;
      const parent = steps
        .slice(0, -1)
        .reduce<unknown>((cur, step) => (isBag(cur) ? cur[step] : undefined), out);
      if (isBag(parent)) delete parent[steps[steps.length - 1]];
    }
    return out;
  },
  bag_set_key: ([v, key, value], kinds) => {
    const k = str(key, kinds[1]);
    if (!isBag(v) || k === null) return null;
    const steps = k.startsWith('$') ? jsonPathKeys(k) : [k];
    if (steps === null) return null;
    const out = structuredClone(v);
    let cur: Record<string, unknown> = out;
    for (const step of steps.slice(0, -1)) {
      // A missing (or non-bag) level on the path becomes a bag, as Kusto's JSONPath example shows.
      if (!isBag(cur[step])) cur[step] = {};
      cur = cur[step] as Record<string, unknown>;
    }
    cur[steps[steps.length - 1]] = toDynamic(value, kinds[2]);
    return out;
  },
  jaccard_index: ([a, b]) => {
    if (!Array.isArray(a) || !Array.isArray(b)) return null;
    const x = new Set(a.map(keyOf));
    const y = new Set(b.map(keyOf));
    const union = new Set([...x, ...y]).size;
    if (union === 0) return null;
    let both = 0;
    for (const k of x) if (y.has(k)) both++;
    return both / union;
  },
};

function isBag(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Kusto's order of element kinds in a sorted array: numbers (and datetimes, timespans), strings, the rest. */
function kindRank(v: unknown): number {
  if (typeof v === 'number') return 0;
  if (typeof v === 'string') return 1;
  return 2;
}

function compareSortable(a: unknown, b: unknown): number {
  const ra = kindRank(a);
  const rb = kindRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 0) return (a as number) - (b as number);
  const x = ra === 1 ? (a as string) : JSON.stringify(a);
  const y = ra === 1 ? (b as string) : JSON.stringify(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

/**
 * `array_sort_asc/desc(a1 [, a2, …] [, nulls_last])` (Kusto): sorts a1 (stable), orders the other arrays
 * to match (null for one whose length differs), nulls last unless `nulls_last` is false. One array gives
 * the sorted array; several give the array of sorted arrays (`array_sort_asc(t, c)[1]`).
 */
function arraySort(args: unknown[], dir: 1 | -1): unknown {
  let arrays = args;
  let nullsLast = true;
  if (args.length > 1 && typeof args[args.length - 1] === 'boolean') {
    nullsLast = args[args.length - 1] as boolean;
    arrays = args.slice(0, -1);
  }
  const first = arrays[0];
  if (!Array.isArray(first)) return arrays.length > 1 ? arrays.map(() => null) : [];
  const order = first.map((_, i) => i);
  order.sort((i, j) => {
    const a = first[i];
    const b = first[j];
    const an = isNullish(a);
    const bn = isNullish(b);
    if (an || bn) return an === bn ? 0 : an === nullsLast ? 1 : -1;
    return dir * compareSortable(a, b);
  });
  const sorted = arrays.map((a) =>
    Array.isArray(a) && a.length === first.length ? order.map((i) => a[i] ?? null) : null,
  );
  return arrays.length === 1 ? sorted[0] : sorted;
}

/** `bag_has_key(bag, key)`; a key starting with `$` is a JSONPath of keys (`$.key2.prop1`, no indexes). */
function bagHasKey(v: unknown, k: unknown): unknown {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return null;
  const key = String(k);
  const steps = key.startsWith('$') ? jsonPathKeys(key) : [key];
  if (steps === null) return false;
  let cur: unknown = v;
  for (const step of steps) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur)) return false;
    if (!Object.prototype.hasOwnProperty.call(cur, step)) return false;
    cur = (cur as Record<string, unknown>)[step];
  }
  return true;
}

/** The keys of a JSONPath made of `.key` and `['key']` steps; null for anything else (indexes, wildcards). */
function jsonPathKeys(path: string): string[] | null {
  const keys: string[] = [];
  const re = /\.([A-Za-z_$@][\w$@-]*)|\[\s*(['"])(.*?)\2\s*\]/y;
  re.lastIndex = 1;
  while (re.lastIndex < path.length) {
    const m = re.exec(path);
    if (!m) return null;
    keys.push(m[1] ?? m[3]);
  }
  return keys.length ? keys : null;
}

/**
 * `treepath(object)` (Kusto): the path of every node below the root, depth first, keys in order. An
 * array stands as one element `[0]` whose subpaths are those of all its elements together (the page:
 * `{"listProperty":[100,200,300,"abcde",{"x":"y"}]}` → `['listProperty']`, `['listProperty'][0]`,
 * `['listProperty'][0]['x']`). Not a bag or an array → null.
 */
export function treePaths(v: unknown): string[] | null {
  if (v === null || typeof v !== 'object') return null;
  const out: string[] = [];
  const seen = new Set<string>();
  const emit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    out.push(path);
  };
  const walk = (node: unknown, path: string): void => {
    if (Array.isArray(node)) {
      if (node.length === 0) return;
      const element = `${path}[0]`;
      emit(element);
      for (const e of node) walk(e, element);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    for (const [k, child] of Object.entries(node as Record<string, unknown>)) {
      const p = `${path}['${k.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}']`;
      emit(p);
      walk(child, p);
    }
  };
  walk(v, '');
  return out;
}
