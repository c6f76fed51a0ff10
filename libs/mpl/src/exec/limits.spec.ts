import { isQuarryError, type QuarryError } from '@quarry/common';
import { runMpl } from '../mpl';
import type { MplResult } from '../result';
import { histogram, scalar, sourceOf } from '../testing/fixtures';
import type { MplLimits } from './limits';

// Three hosts with a sample a minute for 100 minutes, two with a sample every 10 s; one delta histogram.
const every = (step: number, v: number) =>
  Array.from({ length: 6000 / step }, (_, i) => [i * step, v] as [number, number]);
const minutes = (v: number) => every(60, v);
const source = sourceOf(
  'ds',
  scalar('cpu', { host: 'a' }, minutes(1)),
  scalar('cpu', { host: 'b' }, minutes(2)),
  scalar('cpu', { host: 'c' }, minutes(3)),
  scalar('fine', { host: 'a' }, every(10, 1)),
  scalar('fine', { host: 'b' }, every(10, 2)),
  histogram('lat', { svc: 'x' }, 'Delta', [{ time: 0, sum: 1, min: 1, max: 1, bounds: [1], counts: [1, 0] }]),
);

const run = (mpl: string, limits: Partial<MplLimits>, endSec = 6000): Promise<MplResult> =>
  runMpl(mpl, { source, startSec: 0, endSec, nowSec: endSec, limits });

async function failure(mpl: string, limits: Partial<MplLimits>, endSec?: number): Promise<QuarryError> {
  const err = await run(mpl, limits, endSec).then(
    () => null,
    (e: unknown) => e,
  );
  if (!isQuarryError(err)) throw new Error(`expected a QuarryError, got ${String(err)}`);
  expect(err.kind).toBe('invalid');
  expect(err.code).toBe('mpl_limit_exceeded');
  return err;
}

describe('MPL query limits', () => {
  it('caps the series of one source, pointing at the source', async () => {
    const err = await failure('ds:cpu | align to 1h using avg', { maxSeries: 2 });
    expect(err.message).toBe(
      'query exceeds the limit of 2 series per source; cpu has more matching series; ' +
        'narrow the query with where clauses or sample at 1:1',
    );
    expect(err.details).toEqual({ limit: 'series per source', max: 2 });
    expect(
      (await run('ds:cpu | where host != "c" | align to 1h using avg', { maxSeries: 2 })).series,
    ).toHaveLength(2);
  });

  it('caps the points read by the whole query, compute sides together', async () => {
    const err = await failure('ds:cpu', { maxPoints: 250 });
    expect(err.message).toContain('limit of 250 points read; shorten the time range or select fewer series');
    expect((await run('ds:cpu', { maxPoints: 300 })).stats.pointsRead).toBe(300);
    await failure('(ds:cpu | where host == "a", ds:cpu | where host == "b") | compute s using +', {
      maxPoints: 150,
    });
  });

  it('caps the windows of one series, pointing at the stage', async () => {
    const err = await failure('ds:cpu | align to 1s using avg', {}, 1_000_000);
    expect(err.message).toBe(
      'query exceeds the limit of 100,000 windows per series; use a larger window or a shorter range at 1:10',
    );
  });

  it('caps series × windows held by a stage, so many series cannot multiply a legal grid', async () => {
    // 3 series × 100 one-minute windows = 300 cells.
    expect((await run('ds:cpu | align to 1m using avg', { maxCells: 300 })).series).toHaveLength(3);
    const err = await failure('ds:cpu | align to 1m using avg', { maxCells: 299 });
    expect(err.message).toBe(
      'query exceeds the limit of 299 grid cells (series × windows) per stage; this stage would hold ' +
        '3 series × 100 windows; use a larger window, a shorter range, or filter or group series first at 1:10',
    );
    expect(err.details).toEqual({ limit: 'grid cells (series × windows) per stage', max: 299 });
    // The implicit align of a group before any align counts too.
    await failure('ds:cpu | group using sum', { maxCells: 2 });
  });

  it('counts a bucket as groups × (specs + 1) × windows', async () => {
    const mpl = 'ds:lat | bucket to 1m using histogram(count, sum)';
    expect((await run(mpl, { maxCells: 300 })).series).toHaveLength(2);
    await failure(mpl, { maxCells: 299 });
  });

  it('falls back to $__interval when unaligned output would hold too many cells, and fails if that is too many', async () => {
    // Natural grid: 2 series × 600 ten-second slots; $__interval of 100 minutes is 30 s: 2 × 200.
    expect((await run('ds:fine', { maxCells: 1200 })).series[0].resolution).toBe(10);
    const result = await run('ds:fine', { maxCells: 1199 });
    expect(result.series.map((s) => s.resolution)).toEqual([30, 30]);
    expect(result.warnings[0]).toMatch(/^output before any align: aligned to \$__interval \(30s\)/);
    await failure('ds:fine', { maxCells: 399 });
  });
});
