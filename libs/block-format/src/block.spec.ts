import fc from 'fast-check';
import { QuarryError } from '@quarry/common';
import { type Column, type ColumnBatch, type ColumnKind, columnFromValues, valueAt } from '@quarry/contracts';
import { decodeBlock, decodeColumns } from './decode-block';
import { encodeBlock } from './encode-block';
import { footerFetchLength, readFooter } from './footer';
import { FOOTER_TRAILER_BYTES } from './format';

function batchOf(columns: Record<string, Column>, length: number): ColumnBatch {
  return { length, columns: new Map(Object.entries(columns)) };
}

function values(col: Column | undefined, n: number): unknown[] {
  return Array.from({ length: n }, (_, i) => (col ? valueAt(col, i) : null));
}

function expectSameBatch(actual: ColumnBatch, expected: ColumnBatch): void {
  expect(actual.length).toBe(expected.length);
  expect([...actual.columns.keys()].sort()).toEqual([...expected.columns.keys()].sort());
  for (const [name, col] of expected.columns) {
    const got = actual.columns.get(name)!;
    expect(got.kind).toBe(col.kind);
    expect(values(got, actual.length)).toEqual(values(col, expected.length));
  }
}

function corruptError(run: () => unknown): QuarryError {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(QuarryError);
    expect((err as QuarryError).kind).toBe('internal');
    return err as QuarryError;
  }
  throw new Error('expected a throw');
}

const T0 = Date.UTC(2024, 4, 1);

function sampleBatch(): ColumnBatch {
  return batchOf(
    {
      _time: columnFromValues([T0 + 0.001, T0 + 5, null, T0 - 1000.5], 'datetime'),
      span: columnFromValues([1.5, null, 0, -3], 'timespan'),
      n: columnFromValues([1, -2, null, 2 ** 53]),
      r: columnFromValues([1.5, NaN, -0, 1e308]),
      b: columnFromValues([true, false, null, true]),
      s: columnFromValues(['a', '', null, 'héllo 🌍']),
      d: columnFromValues([1, 'x', { a: [1, { b: null }] }, null]),
      allNull: columnFromValues([null, null, null, null]),
    },
    4,
  );
}

describe('block format v2', () => {
  it('round-trips every kind with nulls, empty strings, unicode and mixed values', () => {
    const batch = sampleBatch();
    const bytes = encodeBlock(batch);
    expect(Buffer.from(bytes.subarray(0, 5)).toString('latin1')).toBe('QBLK\x02');
    expect(Buffer.from(bytes.subarray(bytes.length - 4)).toString()).toBe('QBLK');
    expectSameBatch(decodeBlock(bytes), batch);
  });

  it('writes footer stats: row count, time range, null counts, min/max, encodings', () => {
    const footer = readFooter(encodeBlock(sampleBatch()));
    expect(footer.version).toBe(2);
    expect(footer.rowCount).toBe(4);
    expect(footer.minTime).toBe(T0 - 1000.5);
    expect(footer.maxTime).toBe(T0 + 5);
    const col = (name: string) => footer.columns.find((c) => c.name === name)!;
    expect(col('_time')).toMatchObject({
      kind: 'datetime',
      encoding: 'ints',
      layout: 'for/e3',
      nullCount: 1,
    });
    // 2^53 − (−2) does not fit 53 bits: plain float64.
    expect(col('n')).toMatchObject({
      kind: 'long',
      encoding: 'plain-f64',
      nullCount: 1,
      min: -2,
      max: 2 ** 53,
    });
    expect(col('span')).toMatchObject({ encoding: 'ints', layout: 'for/e1', min: -3, max: 1.5 });
    expect(col('r')).toMatchObject({ encoding: 'plain-f64', min: 0, max: 1e308 });
    expect(col('s')).toMatchObject({
      kind: 'string',
      encoding: 'strings',
      layout: 'plain/identity',
      nullCount: 1,
      dictSize: 3,
      min: '',
      max: 'héllo 🌍',
    });
    expect(col('b')).toMatchObject({ encoding: 'ints', layout: 'for', nullCount: 1 });
    expect(col('d')).toMatchObject({ kind: 'dynamic', encoding: 'json', nullCount: 1 });
    expect(col('allNull')).toMatchObject({ kind: 'string', nullCount: 4, dictSize: 0 });
    expect(col('s').filterLength).toBeGreaterThan(0);
  });

  it('decodes only the requested columns; unknown names are absent', () => {
    const decoded = decodeBlock(encodeBlock(sampleBatch()), ['s', '_time', 'nope']);
    expect([...decoded.columns.keys()].sort()).toEqual(['_time', 's']);
  });

  it('reads by byte range: trailer, footer, then only the needed chunks', async () => {
    const bytes = encodeBlock(sampleBatch());
    const need = footerFetchLength(bytes.subarray(bytes.length - FOOTER_TRAILER_BYTES));
    const footer = readFooter(bytes.subarray(bytes.length - need));
    const fetched: [number, number][] = [];
    const batch = await decodeColumns(
      footer,
      async (offset, length) => {
        fetched.push([offset, length]);
        return bytes.slice(offset, offset + length);
      },
      ['n', 'd'],
    );
    expect(fetched).toHaveLength(2);
    expect(values(batch.columns.get('n'), 4)).toEqual([1, -2, null, 2 ** 53]);
    expect(values(batch.columns.get('d'), 4)).toEqual([1, 'x', { a: [1, { b: null }] }, null]);
  });

  it('picks dictionary code widths by size and drops unused dictionary entries', () => {
    for (const distinct of [1, 254, 255, 70_000]) {
      const vals = Array.from({ length: 100_000 }, (_, i) => (i % 7 === 0 ? null : `v${i % distinct}`));
      const col = columnFromValues(vals);
      const batch = batchOf({ s: col }, vals.length);
      const bytes = encodeBlock(batch);
      expectSameBatch(decodeBlock(bytes), batch);
    }
    const shared = { kind: 'string' as const, codes: Int32Array.from([2, 2, -1]), dict: ['a', 'b', 'c'] };
    const footer = readFooter(encodeBlock(batchOf({ s: shared }, 3)));
    expect(footer.columns[0].dictSize).toBe(1);
  });

  it('records rows per value of low-cardinality string columns in the footer (valueCounts)', () => {
    const vals = Array.from({ length: 10_000 }, (_, i) => (i % 10 === 0 ? null : `s${i % 7}`));
    const wide = Array.from({ length: 2_000 }, (_, i) => `v${i}`);
    const shared = { kind: 'string' as const, codes: Int32Array.from([2, 2, -1, 0]), dict: ['a', 'b', 'c'] };
    const footer = readFooter(
      encodeBlock(
        batchOf(
          { s: columnFromValues(vals), shared, wide: columnFromValues([...wide, ...wide].slice(0, 10_000)) },
          10_000,
        ),
      ),
    );
    const meta = (name: string) => footer.columns.find((c) => c.name === name)!;
    const expected = new Map<string, number>();
    for (const v of vals) if (v !== null) expected.set(v, (expected.get(v) ?? 0) + 1);
    expect(new Map(meta('s').valueCounts)).toEqual(expected);
    // Counts and nulls account for every row.
    expect(meta('s').valueCounts!.reduce((a, [, c]) => a + c, 0) + meta('s').nullCount).toBe(10_000);
    // Only the dictionary entries in use, rows past the batch's length are not counted.
    expect(meta('shared').valueCounts).toEqual([
      ['c', 2],
      ['a', 1],
    ]);
    // Too many distinct values: no counts (the footer stays small).
    expect(meta('wide').valueCounts).toBeUndefined();
    // The ingest log's preset keeps none either.
    const log = readFooter(encodeBlock(batchOf({ s: columnFromValues(vals) }, 10_000), { preset: 'fast' }));
    expect(log.columns[0].valueCounts).toBeUndefined();
  });

  it('falls back to plain float64 when the scaled integers would pass 2^53 (sub-µs datetimes)', () => {
    const batch = batchOf({ _time: columnFromValues([T0 + 0.0005, T0], 'datetime') }, 2);
    const bytes = encodeBlock(batch);
    expect(readFooter(bytes).columns[0].encoding).toBe('plain-f64');
    expectSameBatch(decodeBlock(bytes), batch);
  });

  it('round-trips 100k-row batches and an empty batch', () => {
    const n = 100_000;
    const batch = batchOf(
      {
        _time: columnFromValues(
          Array.from({ length: n }, (_, i) => T0 + i * 13.371),
          'datetime',
        ),
        status: columnFromValues(Array.from({ length: n }, (_, i) => [200, 404, 500][i % 3])),
        uri: columnFromValues(Array.from({ length: n }, (_, i) => `/api/${i % 1000}`)),
        ok: columnFromValues(Array.from({ length: n }, (_, i) => i % 5 !== 0)),
      },
      n,
    );
    expectSameBatch(decodeBlock(encodeBlock(batch)), batch);
    const empty = batchOf({}, 0);
    expectSameBatch(decodeBlock(encodeBlock(empty)), empty);
    expect(readFooter(encodeBlock(empty)).minTime).toBeNull();
  });

  it('is deterministic', () => {
    expect(Buffer.from(encodeBlock(sampleBatch())).equals(Buffer.from(encodeBlock(sampleBatch())))).toBe(
      true,
    );
  });

  it('round-trips random batches (property)', () => {
    const scalar = fc.oneof(
      fc.constant(null),
      fc.string(),
      fc.boolean(),
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
    );
    const columnValues = fc.oneof(
      fc.array(fc.oneof(fc.constant(null), fc.string({ unit: 'grapheme' })), {
        minLength: 20,
        maxLength: 20,
      }),
      fc.array(fc.oneof(fc.constant(null), fc.integer()), { minLength: 20, maxLength: 20 }),
      fc.array(fc.oneof(fc.constant(null), fc.double({ noNaN: true })), { minLength: 20, maxLength: 20 }),
      fc.array(fc.option(fc.boolean()), { minLength: 20, maxLength: 20 }),
      fc.array(fc.oneof(scalar, fc.jsonValue({ maxDepth: 2 })), { minLength: 20, maxLength: 20 }),
    );
    const kindFor = fc.constantFrom<ColumnKind | undefined>(undefined, undefined, 'datetime');
    fc.assert(
      fc.property(
        fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.tuple(columnValues, kindFor), {
          maxKeys: 6,
        }),
        (spec) => {
          const columns: Record<string, Column> = {};
          for (const [name, [vals, kind]] of Object.entries(spec)) {
            columns[name] =
              kind === 'datetime'
                ? columnFromValues(
                    vals.map((v) => (typeof v === 'number' ? Math.round(v) + 0 : null)),
                    'datetime',
                  )
                : columnFromValues(vals);
          }
          // (+ 0 turns -0 into 0: a datetime has no negative zero, and delta encoding does not keep it.)
          const batch = batchOf(columns, 20);
          const decoded = decodeBlock(encodeBlock(batch));
          // JSON text loses -0 inside dynamic values; compare through JSON there.
          expect(decoded.length).toBe(20);
          for (const [name, col] of batch.columns) {
            const got = decoded.columns.get(name)!;
            expect(got.kind).toBe(col.kind);
            const norm = (vs: unknown[]) => (col.kind === 'dynamic' ? JSON.parse(JSON.stringify(vs)) : vs);
            expect(norm(values(got, 20))).toEqual(norm(values(col, 20)));
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('block corruption', () => {
  const bytes = encodeBlock(sampleBatch());

  it('reports truncated files as corrupt', () => {
    for (const cut of [0, 3, 11, 12, 40, bytes.length - 1]) {
      const err = corruptError(() => decodeBlock(bytes.subarray(0, cut)));
      expect(err.message).toMatch(/^corrupt block: /);
    }
    expect(corruptError(() => readFooter(bytes.subarray(bytes.length - 20))).message).toMatch(
      /footer is \d+ bytes but only 8/,
    );
  });

  it('reports every single flipped byte as corrupt (or decodes the same data), never a stray error', () => {
    const original = decodeBlock(bytes);
    for (let i = 0; i < bytes.length; i++) {
      const copy = bytes.slice();
      copy[i] ^= 0x5a;
      try {
        expectSameBatch(decodeBlock(copy), original);
      } catch (err) {
        expect(err).toBeInstanceOf(QuarryError);
        expect((err as QuarryError).kind).toBe('internal');
      }
    }
  });

  it('names the column whose chunk fails its checksum', () => {
    const footer = readFooter(bytes);
    const s = footer.columns.find((c) => c.name === 's')!;
    const copy = bytes.slice();
    copy[s.offset] ^= 1;
    expect(corruptError(() => decodeBlock(copy, ['s'])).message).toBe(
      'corrupt block: checksum mismatch in the chunk of column "s"',
    );
    // Other columns are still readable.
    expect(decodeBlock(copy, ['n']).columns.get('n')).toBeDefined();
  });

  it('refuses unknown versions', () => {
    const copy = bytes.slice();
    copy[4] = 9;
    expect(corruptError(() => decodeBlock(copy)).message).toMatch(
      /unsupported block version 9; this reader knows 1, 2/,
    );
  });

  it('survives random garbage', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (garbage) => {
        try {
          decodeBlock(garbage);
        } catch (err) {
          expect(err).toBeInstanceOf(QuarryError);
        }
      }),
    );
  });
});
