/**
 * Concatenates batches for blocking operators. Columns are matched by name; a column whose kind differs
 * between batches is unified (long+real → real, anything else → dynamic with JSON-ready values).
 */
import { hasValue, type Column, type ColumnBatch, type ColumnKind } from '@quarry/contracts';
import { buildColumn, nullColumn, readValue } from './columns';
import { toDynamic } from './functions/scalar-impl';

export function unifyKinds(kinds: ColumnKind[]): ColumnKind {
  let out: ColumnKind | null = null;
  for (const k of kinds) {
    if (out === null || out === k) out = k;
    else if ((out === 'long' || out === 'real') && (k === 'long' || k === 'real')) out = 'real';
    else out = 'dynamic';
  }
  return out ?? 'string';
}

export function concatBatches(batches: ColumnBatch[], names?: string[]): ColumnBatch {
  if (batches.length === 1 && !names) return batches[0];
  let total = 0;
  for (const b of batches) total += b.length;
  const allNames = names ?? [...new Set(batches.flatMap((b) => [...b.columns.keys()]))];
  const columns = new Map<string, Column>();
  for (const name of allNames) {
    const parts = batches.map((b) => b.columns.get(name));
    const present: ColumnKind[] = [];
    const valued: ColumnKind[] = [];
    const nullOnly = parts.map((p, b) => p !== undefined && !hasValue(p, batches[b].length));
    parts.forEach((p, b) => {
      if (p === undefined) return;
      present.push(p.kind);
      if (!nullOnly[b]) valued.push(p.kind);
    });
    if (present.length === 0) continue;
    // A part holding only nulls says nothing about the column's kind (a batch where a field was absent
    // or null reads as an all-null string column): the parts with values decide, when there are any.
    // Only nulls anywhere: their kinds agree, or the column is of no kind in particular (a string column,
    // as for a field no row has) — so that how rows were split into batches never changes the answer.
    const kind =
      valued.length > 0 ? unifyKinds(valued) : present.every((k) => k === present[0]) ? present[0] : 'string';
    // An all-null part of another kind is read as absent: null rows of the unified kind.
    const fitting = parts.map((p, b) => (p !== undefined && p.kind !== kind && nullOnly[b] ? undefined : p));
    columns.set(name, concatColumns(fitting, batches, kind, total));
  }
  return { length: total, columns };
}

function concatColumns(
  parts: (Column | undefined)[],
  batches: ColumnBatch[],
  kind: ColumnKind,
  total: number,
): Column {
  if (kind === 'string') {
    const codes = new Int32Array(total);
    const dict: string[] = [];
    const index = new Map<string, number>();
    let off = 0;
    parts.forEach((p, b) => {
      const n = batches[b].length;
      if (!p || p.kind !== 'string') {
        codes.fill(-1, off, off + n);
      } else {
        // Remap only the codes in use: a selection of a few rows still carries its block's whole
        // dictionary, which can be far larger than the rows.
        const remap = new Int32Array(p.dict.length).fill(-1);
        const src = p.codes;
        for (let i = 0; i < n; i++) {
          const code = src[i];
          if (code < 0) {
            codes[off + i] = -1;
            continue;
          }
          let c = remap[code];
          if (c < 0) {
            const s = p.dict[code];
            const known = index.get(s);
            if (known === undefined) {
              c = dict.length;
              dict.push(s);
              index.set(s, c);
            } else c = known;
            remap[code] = c;
          }
          codes[off + i] = c;
        }
      }
      off += n;
    });
    return { kind: 'string', codes, dict };
  }
  if (kind === 'long' || kind === 'real' || kind === 'datetime' || kind === 'timespan' || kind === 'bool') {
    const values = kind === 'bool' ? new Uint8Array(total) : new Float64Array(total);
    let nulls: Uint8Array | null = null;
    let off = 0;
    parts.forEach((p, b) => {
      const n = batches[b].length;
      if (!p) {
        (nulls ??= new Uint8Array(total)).fill(1, off, off + n);
      } else {
        const src = p as { values: Float64Array | Uint8Array; nulls: Uint8Array | null };
        values.set(src.values, off);
        if (src.nulls) (nulls ??= new Uint8Array(total)).set(src.nulls, off);
      }
      off += n;
    });
    return kind === 'bool'
      ? { kind, values: values as Uint8Array, nulls }
      : { kind, values: values as Float64Array, nulls };
  }
  const values: unknown[] = new Array(total);
  let off = 0;
  parts.forEach((p, b) => {
    const n = batches[b].length;
    for (let i = 0; i < n; i++) values[off + i] = p ? toDynamic(readValue(p, i), p.kind) : null;
    off += n;
  });
  return buildColumn(values, 'dynamic');
}

export function emptyBatch(names: { name: string; type: ColumnKind }[]): ColumnBatch {
  const columns = new Map<string, Column>();
  for (const f of names) columns.set(f.name, nullColumn(f.type, 0));
  return { length: 0, columns };
}
