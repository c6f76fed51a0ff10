import { columnFromValues, valueAt, type Column, type ColumnBatch } from '@quarry/contracts';
import { call, col, lit, SCALAR_SIGNATURES, type PExpr } from '@quarry/query-plan';
import { SCALAR_IMPLS } from '../functions/registry';
import { EvalContext } from './context';
import { evaluate } from './evaluate';

function batch(cols: Record<string, unknown[]>): ColumnBatch {
  const columns = new Map<string, Column>();
  let length = 0;
  for (const [k, v] of Object.entries(cols)) {
    columns.set(k, columnFromValues(v));
    length = v.length;
  }
  return { length, columns };
}

function values(e: PExpr, b: ColumnBatch): unknown[] {
  const c = evaluate(e, b, new EvalContext());
  return Array.from({ length: b.length }, (_, i) => valueAt(c, i));
}

const s = (v: string) => lit(v, 'string');

describe('evaluate', () => {
  const b = batch({
    a: [1, 2, null, 4],
    x: ['GET', null, 'post', 'Put'],
    m: ['cache_miss for user_42', 'Login OK', null, 'log-in'],
  });

  it('applies == / != null rules', () => {
    expect(values(call('==', [col('x', 'string'), s('GET')], 'bool'), b)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(values(call('!=', [col('x', 'string'), s('GET')], 'bool'), b)).toEqual([false, true, true, true]);
    expect(values(call('==', [col('a', 'long'), lit(null, 'long')], 'bool'), b)).toEqual([
      false,
      false,
      null,
      false,
    ]);
    expect(values(call('>', [col('a', 'long'), lit(1, 'long')], 'bool'), b)).toEqual([
      false,
      true,
      null,
      true,
    ]);
  });

  it('uses three-valued and/or', () => {
    const isNull = call('>', [col('a', 'long'), lit(0, 'long')], 'bool'); // null on row 2
    expect(values(call('and', [isNull, lit(false, 'bool')], 'bool'), b)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(values(call('or', [isNull, lit(true, 'bool')], 'bool'), b)).toEqual([true, true, true, true]);
    expect(values(call('and', [isNull, lit(true, 'bool')], 'bool'), b)).toEqual([true, true, null, true]);
  });

  it('matches has on whole terms (underscore separates)', () => {
    expect(values(call('has', [col('m', 'string'), s('user')], 'bool'), b)).toEqual([
      true,
      false,
      false,
      false,
    ]);
    expect(values(call('has', [col('m', 'string'), s('log')], 'bool'), b)).toEqual([
      false,
      false,
      false,
      true,
    ]);
    expect(values(call('has', [col('m', 'string'), s('LOGIN')], 'bool'), b)).toEqual([
      false,
      true,
      false,
      false,
    ]);
    expect(values(call('has_cs', [col('m', 'string'), s('login')], 'bool'), b)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(values(call('contains', [col('m', 'string'), s('LOG')], 'bool'), b)).toEqual([
      false,
      true,
      false,
      true,
    ]);
    expect(values(call('!contains', [col('m', 'string'), s('log')], 'bool'), b)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(values(call('startswith', [col('x', 'string'), s('p')], 'bool'), b)).toEqual([
      false,
      false,
      true,
      true,
    ]);
    expect(values(call('matches regex', [col('m', 'string'), s('[0-9]+$')], 'bool'), b)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('does arithmetic with promotion, integer division and null propagation', () => {
    expect(values(call('/', [col('a', 'long'), lit(2, 'long')], 'long'), b)).toEqual([0, 1, null, 2]);
    expect(values(call('/', [col('a', 'long'), lit(2.0, 'real')], 'real'), b)).toEqual([0.5, 1, null, 2]);
    expect(values(call('/', [col('a', 'long'), lit(0, 'long')], 'long'), b)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(
      evaluate(
        call('-', [lit(Date.UTC(2024, 0, 2), 'datetime'), lit(Date.UTC(2024, 0, 1), 'datetime')], 'timespan'),
        b,
        new EvalContext(),
      ).kind,
    ).toBe('timespan');
  });

  it('subtracts two datetimes to whole microseconds (no float noise)', () => {
    // 2017-10-30T23:00:10.765432Z − 2017-10-30T23:00:10Z: 765,432 µs, which float64 ms alone gives as 765.4319…
    const later = Date.UTC(2017, 9, 30, 23, 0, 10) + 765.432;
    const diff = evaluate(
      call('-', [lit(later, 'datetime'), lit(Date.UTC(2017, 9, 30, 23, 0, 10), 'datetime')], 'timespan'),
      b,
      new EvalContext(),
    );
    expect(diff.kind).toBe('timespan');
    expect(
      values(
        call('-', [lit(later, 'datetime'), lit(Date.UTC(2017, 9, 30, 23, 0, 10), 'datetime')], 'timespan'),
        b,
      )[0],
    ).toBe(765.432);
  });

  it('handles in / !in / in~ with dynamic lists', () => {
    expect(values(call('in', [col('x', 'string'), s('GET'), s('post')], 'bool'), b)).toEqual([
      true,
      false,
      true,
      false,
    ]);
    expect(values(call('in~', [col('x', 'string'), lit(['get', 'PUT'], 'dynamic')], 'bool'), b)).toEqual([
      true,
      false,
      false,
      true,
    ]);
    expect(values(call('!in', [col('a', 'long'), lit(1, 'long')], 'bool'), b)).toEqual([
      false,
      true,
      true,
      true,
    ]);
  });

  it('evaluates a field whose kind differs between batches', () => {
    const longs = batch({ retry: [3, 1] });
    const strings = batch({ retry: ['3', 'x'] });
    const e = call('toint', [col('retry', 'dynamic')], 'long');
    expect(values(e, longs)).toEqual([3, 1]);
    expect(values(e, strings)).toEqual([3, null]);
    expect(values(call('tostring', [col('retry', 'dynamic')], 'string'), longs)).toEqual(['3', '1']);
  });

  it('treats absent columns as null', () => {
    expect(values(call('isnull', [col('nope', 'string')], 'bool'), b)).toEqual([true, true, true, true]);
    expect(values(call('coalesce', [col('nope', 'string'), col('x', 'string')], 'string'), b)).toEqual([
      'GET',
      null,
      'post',
      'Put',
    ]);
  });

  it('works on dynamic arrays', () => {
    const d = batch({ tags: [['a', 'b'], null, []] });
    expect(values(call('array_length', [col('tags', 'dynamic')], 'long'), d)).toEqual([2, null, 0]);
    expect(values(call('index', [col('tags', 'dynamic'), lit(0, 'long')], 'dynamic'), d)).toEqual([
      'a',
      null,
      null,
    ]);
    expect(values(call('index', [col('tags', 'dynamic'), lit(-1, 'long')], 'dynamic'), d)).toEqual([
      'b',
      null,
      null,
    ]);
    expect(values(call('tostring', [col('tags', 'dynamic')], 'string'), d)).toEqual(['["a","b"]', '', '[]']);
  });

  it('has an implementation for every scalar signature', () => {
    const planTime = new Set([
      'now',
      'ago',
      'column_ifexists',
      'ensure_field',
      'ingestion_time',
      'bin_auto',
      'not',
      // Bound to bag_pack / bag_pack_sparse of the row's columns (expression-binder.ts).
      'pack_all',
    ]);
    const missing = [...SCALAR_SIGNATURES.values()]
      .filter((sig) => !sig.aliasOf && !planTime.has(sig.name) && !SCALAR_IMPLS.has(sig.name))
      .map((sig) => sig.name);
    expect(missing).toEqual([]);
  });

  it('draws rand() once per row, not once per batch', () => {
    const big = batch({ x: Array.from({ length: 200 }, (_, i) => (i % 2 ? 'a' : 'b')) });
    const reals = values(call('rand', [], 'real'), big) as number[];
    expect(new Set(reals).size).toBeGreaterThan(150);
    expect(reals.every((v) => v >= 0 && v < 1)).toBe(true);
    // A constant bound still varies per row.
    const longs = values(call('rand', [lit(1000, 'long')], 'long'), big) as number[];
    expect(new Set(longs).size).toBeGreaterThan(20);
    expect(longs.every((v) => Number.isInteger(v) && v >= 0 && v < 1000)).toBe(true);
  });
});
