import fc from 'fast-check';
import type { Column, ColumnBatch, NumericColumn } from '@quarry/contracts';
import { decodeBlock } from './decode-block';
import { type EncodeOptions, encodeBlock } from './encode-block';
import { readFooter } from './footer';

/**
 * Round trips of random columns of every kind through every preset: what comes back is exactly what went
 * in (numbers bit for bit, -0, NaN and ±Infinity included; strings exactly, but for lone surrogates,
 * which UTF-8 stores as U+FFFD).
 */
const TWO_53 = 2 ** 53;

const numberValue = fc.oneof(
  { weight: 3, arbitrary: fc.double() }, // includes NaN, ±Infinity, -0, subnormals, huge and tiny
  { weight: 3, arbitrary: fc.integer({ min: -1e6, max: 1e6 }) },
  { weight: 2, arbitrary: fc.integer({ min: -1e9, max: 1e9 }).map((k) => k / 1000) },
  { weight: 1, arbitrary: fc.integer({ min: -1e12, max: 1e12 }).map((k) => k / 1e6) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(TWO_53, -TWO_53, TWO_53 - 1, 1 - TWO_53, TWO_53 + 2, 2 ** 32, -0, NaN),
  },
  { weight: 1, arbitrary: fc.maxSafeInteger() },
);

/** Value lists shaped as blocks hold them: random, sorted (times), runs (constant or low-cardinality). */
function shaped<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T[]> {
  return fc.oneof(
    fc.array(value, { maxLength: 120 }),
    fc
      .array(fc.tuple(value, fc.integer({ min: 1, max: 60 })), { maxLength: 8 })
      .map((runs) => runs.flatMap(([v, n]) => Array<T>(n).fill(v))),
    fc.constantFrom<T[]>([], []),
  );
}

const withNulls = <T>(value: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 5, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) });

const numericColumn = fc
  .tuple(
    fc.constantFrom<NumericColumn['kind']>('long', 'real', 'datetime', 'timespan'),
    fc.oneof(
      shaped(withNulls(numberValue)),
      fc.array(fc.nat(100_000), { minLength: 30, maxLength: 200 }).map((gaps) => {
        let us = 1.7e15;
        return gaps.map((g) => (us += g) / 1000); // sorted times (ms) with µs
      }),
      fc.array(fc.constant(null), { maxLength: 20 }),
    ),
  )
  .map(([kind, values]): Column => {
    const nulls = values.some((v) => v === null)
      ? Uint8Array.from(values, (v) => (v === null ? 1 : 0))
      : null;
    return { kind, values: Float64Array.from(values, (v) => v ?? 0), nulls };
  });

const boolColumn = shaped(withNulls(fc.boolean())).map((values): Column => {
  const nulls = values.some((v) => v === null) ? Uint8Array.from(values, (v) => (v === null ? 1 : 0)) : null;
  return { kind: 'bool', values: Uint8Array.from(values, (v) => (v ? 1 : 0)), nulls };
});

const WORDS = ['GET', 'request', 'served', 'in', '', 'ms', 'Σίσυφος', 'über', '🌍', 'x', '12', 'a-b', 'ΑΣ'];
const stringValue = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 12 }), // lone surrogates
  fc.array(fc.constantFrom(...WORDS), { maxLength: 12 }).map((w) => w.join(' ')), // spaces: tokens
  fc.array(fc.constantFrom(' ', '  ', 'a', 'é'), { maxLength: 10 }).map((w) => w.join('')),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 16, maxLength: 16 }),
  fc.string({ unit: fc.constantFrom(...'0123456789ABCDEF'), minLength: 8, maxLength: 8 }),
  fc.uuid(),
  fc.constantFrom('', ' ', 'a'),
);
/** Columns of one flavour (all hex, all free text, ...) so the special value layouts get chosen. */
const stringColumn = fc
  .oneof(
    shaped(withNulls(stringValue)),
    fc.array(withNulls(fc.uuid()), { maxLength: 60 }),
    fc.array(
      withNulls(fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 32, maxLength: 32 })),
      {
        maxLength: 60,
      },
    ),
    fc.array(
      fc.array(fc.constantFrom(...WORDS), { minLength: 3, maxLength: 12 }).map((w) => w.join(' ')),
      { minLength: 20, maxLength: 150 },
    ),
  )
  // Sometimes the dictionary is shared with other rows, as when a block is cut from a larger batch: codes
  // then use a range in the middle of a dictionary many times larger than the block.
  .chain((values) =>
    fc.oneof(fc.constant([0, 0]), fc.tuple(fc.nat(500), fc.nat(500))).map(([before, after]): Column => {
      const dict: string[] = Array.from({ length: before }, (_, k) => `unused-${k}`);
      const index = new Map<string, number>();
      const codes = Int32Array.from(values, (v) => {
        if (v === null) return -1;
        let c = index.get(v);
        if (c === undefined) index.set(v, (c = dict.push(v) - 1));
        return c;
      });
      for (let k = 0; k < after; k++) dict.push(`unused-after-${k}`);
      return { kind: 'string', codes, dict };
    }),
  );

const dynamicColumn = shaped(withNulls(fc.jsonValue({ maxDepth: 2 }))).map((values): Column => ({
  kind: 'dynamic',
  values,
}));

const anyColumn = fc.oneof(numericColumn, boolColumn, stringColumn, dynamicColumn);

function lengthOf(col: Column): number {
  return col.kind === 'string' ? col.codes.length : col.values.length;
}

/** Row i as a comparable value: numbers keep -0 and NaN apart (Object.is through toEqual). */
function rowsOf(col: Column, n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    switch (col.kind) {
      case 'string':
        out.push(col.codes[i] < 0 ? null : col.dict[col.codes[i]]);
        break;
      case 'dynamic':
        out.push(col.values[i] ?? null);
        break;
      case 'bool':
        out.push(col.nulls?.[i] ? null : col.values[i] === 1);
        break;
      default:
        out.push(col.nulls?.[i] ? null : col.values[i]);
    }
  }
  return out;
}

function expected(col: Column, n: number): unknown[] {
  const rows = rowsOf(col, n);
  if (col.kind === 'string')
    return rows.map((v) => (v === null ? null : (v as { toWellFormed(): string } & string).toWellFormed()));
  if (col.kind === 'dynamic') return JSON.parse(JSON.stringify(rows)); // JSON text has no -0
  return rows;
}

const PRESETS: EncodeOptions[] = [{}, { preset: 'fast' }, { compression: 'none' }, { zstdLevel: 9 }];

describe('round trip of random columns (property)', () => {
  it('every kind, every preset: decoded rows equal the input rows', () => {
    const layouts = new Set<string>();
    fc.assert(
      fc.property(
        fc.array(anyColumn, { minLength: 1, maxLength: 4 }),
        fc.constantFrom(...PRESETS),
        (cols, options) => {
          // Columns of one batch share a length: shorter ones get null rows at the end.
          const n = Math.max(...cols.map(lengthOf));
          const columns = new Map<string, Column>();
          cols.forEach((col, i) => columns.set(`c${i}`, pad(col, n)));
          const batch: ColumnBatch = { length: n, columns };
          const bytes = encodeBlock(batch, options);
          const decoded = decodeBlock(bytes);
          for (const meta of readFooter(bytes).columns) layouts.add(`${meta.encoding} ${meta.layout ?? ''}`);
          expect(decoded.length).toBe(n);
          for (const [name, col] of columns) {
            const got = decoded.columns.get(name)!;
            expect(got.kind).toBe(col.kind);
            expect(rowsOf(got, n)).toEqual(expected(col, n));
          }
          // Value counts in the footer, where a string column has them, are its rows per value.
          for (const meta of readFooter(bytes).columns) {
            if (meta.valueCounts === undefined) continue;
            const counts = new Map<unknown, number>();
            for (const v of expected(columns.get(meta.name)!, n))
              if (v !== null) counts.set(v, (counts.get(v) ?? 0) + 1);
            expect(new Map(meta.valueCounts)).toEqual(counts);
          }
          expect(
            readFooter(bytes).columns.every((c) =>
              options.preset === 'fast' ? c.compression === 'none' : true,
            ),
          ).toBe(true);
        },
      ),
      { numRuns: 400 },
    );
    // The generators reach every layout (a guard against a generator that stopped covering one).
    // Prefixes: `ints delta` also matches `ints delta/e3`.
    for (const layout of [
      'ints for',
      'ints delta',
      'ints rle',
      'ints for/e3',
      'plain-f64 ',
      'strings plain/identity',
      'strings plain/for',
      'strings plain/rle',
      'strings hex/identity',
      'strings uuid/identity',
      'strings tokens/',
      'json ',
    ])
      expect([layout, [...layouts].some((l) => l.startsWith(layout))]).toEqual([layout, true]);
  });

  it('keeps the bits of NaN payloads and -0 in plain float64', () => {
    const values = new Float64Array(4);
    const bits = new Uint32Array(values.buffer);
    bits[0] = 0x00000001;
    bits[1] = 0x7ff80000; // a quiet NaN with a payload
    values[1] = -0;
    values[2] = Infinity;
    values[3] = -Infinity;
    const bytes = encodeBlock({
      length: 4,
      columns: new Map([['r', { kind: 'real', values, nulls: null }]]),
    });
    const got = decodeBlock(bytes).columns.get('r') as NumericColumn;
    expect(new Uint32Array(got.values.buffer, got.values.byteOffset, 8)).toEqual(bits);
  });
});

/** The column with null rows appended up to `n` rows. */
function pad(col: Column, n: number): Column {
  const m = lengthOf(col);
  const nulls = (own: Uint8Array | null) => {
    if (m === n) return own;
    const out = new Uint8Array(n).fill(1);
    if (own) out.set(own);
    else out.fill(0, 0, m);
    return out;
  };
  switch (col.kind) {
    case 'string': {
      const codes = new Int32Array(n).fill(-1);
      codes.set(col.codes);
      return { kind: 'string', codes, dict: col.dict };
    }
    case 'dynamic':
      return { kind: 'dynamic', values: [...col.values, ...Array(n - m).fill(null)] };
    case 'bool': {
      const values = new Uint8Array(n);
      values.set(col.values);
      return { kind: 'bool', values, nulls: nulls(col.nulls) };
    }
    default: {
      const values = new Float64Array(n);
      values.set(col.values);
      return { kind: col.kind, values, nulls: nulls(col.nulls) };
    }
  }
}
