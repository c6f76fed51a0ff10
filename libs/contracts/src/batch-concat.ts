import type { Column, ColumnBatch, ColumnKind, StringColumn } from './columns';
import { TIME_FIELD } from './columns';
import { StringInterner } from './string-interner';
import { Utf8Interner, utf8StringColumn } from './utf8-interner';

/**
 * Concatenates batches built by `batchFromEvents` (the tail's records, one batch per log record) into one
 * batch with exactly the columns, kinds, values and dictionary order that `batchFromEvents` would give for
 * all their events at once. The compactor relies on this: a block built from in-memory batches is the
 * block it would have built from the events.
 *
 * Kinds unify like `inferKind` over the union: a column with no non-null value does not vote; long+real is
 * real; any other mix of kinds is dynamic, holding the plain JS values (strings, booleans, numbers, raw
 * dynamic values).
 */
export interface ConcatOptions {
  /**
   * A buffer of at least `bytes` bytes for a concatenated UTF-8 dictionary (by default a fresh one): the
   * compactor lends buffers it reuses from one flush to the next. The dictionary is a view of it.
   */
  dictionaryBuffer?: (bytes: number) => Buffer;
}

export function concatEventBatches(
  batches: readonly ColumnBatch[],
  options: ConcatOptions = {},
): ColumnBatch {
  if (batches.length === 1) return batches[0];
  let total = 0;
  for (const b of batches) total += b.length;
  const names: string[] = [];
  const seen = new Set<string>();
  for (const b of batches) {
    for (const name of b.columns.keys()) {
      if (seen.has(name)) continue;
      seen.add(name);
      names.push(name);
    }
  }
  const columns = new Map<string, Column>();
  for (const name of names) {
    const parts: (Column | undefined)[] = batches.map((b) => b.columns.get(name));
    columns.set(name, concatColumn(parts, batches, total, options));
  }
  return { length: total, columns };
}

function concatColumn(
  parts: (Column | undefined)[],
  batches: readonly ColumnBatch[],
  total: number,
  options: ConcatOptions,
): Column {
  const kind = unifiedKind(parts, batches);
  switch (kind) {
    case 'string':
      return concatStrings(parts, batches, total, options);
    case 'dynamic':
      return concatDynamic(parts, batches, total);
    case 'bool': {
      const values = new Uint8Array(total);
      return { kind, values, nulls: concatFixed(parts, batches, total, values) };
    }
    default: {
      const values = new Float64Array(total);
      return { kind, values, nulls: concatFixed(parts, batches, total, values) };
    }
  }
}

function unifiedKind(parts: (Column | undefined)[], batches: readonly ColumnBatch[]): ColumnKind {
  let out: ColumnKind | null = null;
  for (let b = 0; b < parts.length; b++) {
    const part = parts[b];
    if (part === undefined || !hasValue(part, batches[b].length)) continue;
    const k = part.kind;
    if (out === null || out === k) out = k;
    else if ((out === 'long' || out === 'real') && (k === 'long' || k === 'real')) out = 'real';
    else out = 'dynamic';
  }
  return out ?? 'string'; // all null: what inferKind answers
}

/** Whether any of the first `n` rows of a column holds a value (not null). */
export function hasValue(column: Column, n: number): boolean {
  switch (column.kind) {
    case 'string':
      for (let i = 0; i < n; i++) if (column.codes[i] >= 0) return true;
      return false;
    case 'dynamic':
      for (let i = 0; i < n; i++)
        if (column.values[i] !== null && column.values[i] !== undefined) return true;
      return false;
    default:
      if (column.nulls === null) return n > 0;
      for (let i = 0; i < n; i++) if (column.nulls[i] === 0) return true;
      return false;
  }
}

/** Numeric and bool parts (all of one family by construction); absent or other-kind parts are null. */
function concatFixed(
  parts: (Column | undefined)[],
  batches: readonly ColumnBatch[],
  total: number,
  values: Float64Array | Uint8Array,
): Uint8Array | null {
  let nulls: Uint8Array | null = null;
  let off = 0;
  for (let b = 0; b < parts.length; b++) {
    const n = batches[b].length;
    const part = parts[b];
    if (part === undefined || part.kind === 'string' || part.kind === 'dynamic') {
      // Absent, or all null (a part of another kind only gets here when it has no value).
      (nulls ??= new Uint8Array(total)).fill(1, off, off + n);
    } else {
      values.set(part.values, off);
      if (part.nulls) (nulls ??= new Uint8Array(total)).set(part.nulls, off);
    }
    off += n;
  }
  return nulls;
}

function concatStrings(
  parts: (Column | undefined)[],
  batches: readonly ColumnBatch[],
  total: number,
  options: ConcatOptions,
): Column {
  const codes = new Int32Array(total);
  let distinctBound = 0;
  let bytesBound = 0;
  let allUtf8 = true;
  for (const part of parts) {
    if (part === undefined || part.kind !== 'string') continue;
    if (part.utf8 === undefined) allUtf8 = false;
    else bytesBound += part.utf8.bytes.length;
    distinctBound += dictSize(part);
  }
  // Parts read from the log keep their strings as UTF-8: interned as bytes, they are never decoded here
  // (a decode and a string hash per distinct value of every part cost more than hashing the bytes).
  const utf8 = allUtf8
    ? new Utf8Interner(
        Math.min(distinctBound, total),
        bytesBound,
        bytesBound > 0 ? options.dictionaryBuffer?.(bytesBound) : undefined,
      )
    : null;
  const strings = allUtf8 ? null : new StringInterner(Math.min(distinctBound, total));
  let off = 0;
  for (let b = 0; b < parts.length; b++) {
    const n = batches[b].length;
    const part = parts[b];
    if (part === undefined || part.kind !== 'string') {
      codes.fill(-1, off, off + n);
      off += n;
      continue;
    }
    // Map this part's codes in row order so the dictionary keeps first-appearance order.
    const remap = new Int32Array(dictSize(part)).fill(-1);
    const dict = utf8 === null ? part.dict : null;
    const bytes = part.utf8?.bytes;
    const ends = part.utf8?.ends;
    for (let i = 0; i < n; i++) {
      const c = part.codes[i];
      if (c < 0) {
        codes[off + i] = -1;
        continue;
      }
      let code = remap[c];
      if (code === -1)
        code = remap[c] =
          utf8 !== null
            ? utf8.intern(bytes!, c === 0 ? 0 : ends![c - 1], ends![c])
            : strings!.intern(dict![c]);
      codes[off + i] = code;
    }
    off += n;
  }
  if (utf8 !== null) return utf8StringColumn(codes, utf8.finish());
  return { kind: 'string', codes, dict: strings!.values };
}

/** Distinct values of a string column, without decoding a UTF-8 dictionary. */
function dictSize(column: StringColumn): number {
  return column.utf8 !== undefined ? column.utf8.ends.length : column.dict.length;
}

function concatDynamic(
  parts: (Column | undefined)[],
  batches: readonly ColumnBatch[],
  total: number,
): Column {
  const values: unknown[] = new Array(total).fill(null);
  let off = 0;
  for (let b = 0; b < parts.length; b++) {
    const n = batches[b].length;
    const part = parts[b];
    if (part !== undefined) {
      for (let i = 0; i < n; i++) values[off + i] = plainValue(part, i);
    }
    off += n;
  }
  return { kind: 'dynamic', values };
}

function plainValue(column: Column, i: number): unknown {
  switch (column.kind) {
    case 'string': {
      const code = column.codes[i];
      return code < 0 ? null : column.dict[code];
    }
    case 'dynamic': {
      const v = column.values[i];
      return v === undefined ? null : v;
    }
    case 'bool':
      return column.nulls && column.nulls[i] ? null : column.values[i] === 1;
    default:
      return column.nulls && column.nulls[i] ? null : column.values[i];
  }
}

/**
 * Row order by ascending `_time`, ties in row order, or null when the rows are already in that order
 * (the common case for a tail appended in time order).
 *
 * A flush concatenates log records that are each in time order (a client sends its batch in order), and
 * concurrent requests swap places or overlap: the rows come as a few ascending runs. Merging those runs
 * pairwise costs a pass over the rows per doubling: 2.6–3 ms for 70,000 rows in 14 runs (most of it
 * faulting in the two index arrays on a VM), where a comparison sort of the row numbers took 7 ms. Random
 * times (runs of a row or two) merge too, in log2(n) passes.
 */
export function timeOrder(batch: ColumnBatch): Uint32Array | null {
  const column = batch.columns.get(TIME_FIELD);
  if (column === undefined || column.kind !== 'datetime') return null;
  const time = column.values;
  const n = batch.length;
  // Run r is rows [bounds[r], bounds[r + 1]).
  // Times are never NaN here: the batch builders store NaN as null, and an event's time is a number.
  let bounds: number[] = [0];
  for (let i = 1; i < n; i++) if (time[i] < time[i - 1]) bounds.push(i);
  if (bounds.length === 1) return null;
  bounds.push(n);
  let from = new Uint32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  let to = new Uint32Array(n);
  while (bounds.length > 2) {
    const merged: number[] = [];
    let r = 0;
    for (; r + 2 < bounds.length; r += 2) {
      mergeRuns(time, from, to, bounds[r], bounds[r + 1], bounds[r + 2]);
      merged.push(bounds[r]);
    }
    if (r + 1 < bounds.length) {
      to.set(from.subarray(bounds[r], bounds[r + 1]), bounds[r]);
      merged.push(bounds[r]);
    }
    merged.push(n);
    [from, to] = [to, from];
    bounds = merged;
  }
  return from;
}

/**
 * Merges the ordered rows `from[lo, mid)` and `from[mid, hi)` into `to[lo, hi)`. The left run's rows come
 * first in the batch, so taking from it on equal times keeps ties in row order.
 */
function mergeRuns(
  time: Float64Array,
  from: Uint32Array,
  to: Uint32Array,
  lo: number,
  mid: number,
  hi: number,
): void {
  // Records of concurrent requests mostly swap places rather than interleave: whole runs in order.
  if (time[from[mid]] >= time[from[mid - 1]]) {
    to.set(from.subarray(lo, hi), lo);
    return;
  }
  if (time[from[hi - 1]] < time[from[lo]]) {
    to.set(from.subarray(mid, hi), lo);
    to.set(from.subarray(lo, mid), lo + hi - mid);
    return;
  }
  let a = lo;
  let b = mid;
  let k = lo;
  while (a < mid && b < hi) {
    const left = from[a];
    const right = from[b];
    if (time[right] < time[left]) {
      to[k++] = right;
      b++;
    } else {
      to[k++] = left;
      a++;
    }
  }
  while (a < mid) to[k++] = from[a++];
  while (b < hi) to[k++] = from[b++];
}
