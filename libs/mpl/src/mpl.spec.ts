import { isQuarryError } from '@quarry/common';
import { datasetsOfMpl, renderMpl, runMpl, validateMpl } from './index';
import type { MplResult } from './result';
import { histogram, scalar, sourceOf } from './testing/fixtures';

const N = null;
// requests: two services, samples every 10 s from t=0
const source = sourceOf(
  'ds',
  scalar('req', { service: 'api', code: '200' }, [
    [0, 10],
    [10, 20],
    [20, 30],
    [60, 40],
    [70, 50],
  ]),
  scalar('req', { service: 'api', code: '500' }, [
    [0, 1],
    [10, 1],
    [60, 3],
  ]),
  scalar('req', { service: 'web', code: '200' }, [
    [0, 100],
    [30, 130],
    [90, 5],
  ]),
  scalar('mem', { host: 'a', cores: 4 }, [
    [0, 1],
    [60, 2],
  ]),
  scalar('mem', { host: 'b', cores: 8, canary: true }, [
    [0, 3],
    [60, 5],
  ]),
  histogram('lat', { service: 'api' }, 'Delta', [
    { time: 5, sum: 3, min: 0.5, max: 2, bounds: [1, 2], counts: [1, 2, 0] },
    { time: 65, sum: 1, min: null, max: null, bounds: [1, 2], counts: [1, 0, 0] },
  ]),
);

async function run(
  mpl: string,
  extra: { params?: Record<string, string>; start?: number; end?: number } = {},
): Promise<MplResult> {
  return runMpl(mpl, {
    source,
    startSec: extra.start ?? 0,
    endSec: extra.end ?? 120,
    nowSec: 1000,
    params: extra.params,
  });
}

/** `tags-as-text → data` for compact assertions. */
async function table(mpl: string, extra?: Parameters<typeof run>[1]) {
  const result = await run(mpl, extra);
  const out: Record<string, unknown> = {};
  for (const s of result.series)
    out[JSON.stringify(s.tags)] = {
      start: s.start,
      res: s.resolution,
      data: Array.from(s.data, (v) => (Number.isFinite(v) ? v : null)),
    };
  return out;
}

async function failure(mpl: string, extra?: Parameters<typeof run>[1]) {
  try {
    await run(mpl, extra);
  } catch (err) {
    if (isQuarryError(err)) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('runMpl', () => {
  it('renders unaligned series on their natural spacing', async () => {
    expect(await table('ds:req | where code == "500"')).toEqual({
      '{"service":"api","code":"500"}': { start: 0, res: 10, data: [1, 1, N, N, N, N, 3] },
    });
  });

  it('groups by a tag (missing tag → null) and over everything', async () => {
    expect(await table('ds:req | align to 1m using sum | group by service using sum')).toEqual({
      '{"service":"api"}': { start: 0, res: 60, data: [62, 93] },
      '{"service":"web"}': { start: 0, res: 60, data: [230, 5] },
    });
    expect(await table('ds:mem | align to 1m using max | group by canary using count')).toEqual({
      '{"canary":null}': { start: 0, res: 60, data: [1, 1] },
      '{"canary":true}': { start: 0, res: 60, data: [1, 1] },
    });
    expect(await table('ds:mem | align to 1m using max | group using avg')).toEqual({
      '{}': { start: 0, res: 60, data: [2, 3.5] },
    });
    expect(await table('ds:mem | align to 1m using max | group by host using min')).toMatchObject({
      '{"host":"a"}': { data: [1, 2] },
    });
  });

  it('aligns an ungrouped input implicitly with $__interval and warns', async () => {
    const result = await run('ds:mem | group using sum', { end: 3600 });
    expect(result.series[0].resolution).toBe(15);
    expect(result.warnings[0]).toContain('$__interval (15s)');
  });

  it('prom::rate with a counter reset', async () => {
    expect(await table('ds:req | where service == "web" | align to 1m using prom::rate')).toEqual({
      '{"service":"web","code":"200"}': { start: 0, res: 60, data: [0.5, 5 / 60] },
    });
  });

  it('computes over identical tag maps with strict intersection and ÷0 dropped', async () => {
    const mpl = `(ds:req | where code == "200" | align to 1m using sum | group by service using sum,
                 ds:req | where code == "500" | align to 1m using sum | group by service using sum) | compute ratio using /`;
    const result = await run(mpl);
    expect(result.series.map((s) => [s.metric, s.tags, Array.from(s.data)])).toEqual([
      ['ratio', { service: 'api' }, [30, 30]],
    ]);
    const zero = await table(
      '(ds:mem | align to 1m using max, ds:mem | align to 1m using max | map - 1) | compute x using / | as y',
    );
    expect(zero).toMatchObject({ '{"host":"a","cores":4}': { data: [N, 2] } });
    const ops = await table(
      '(ds:mem | align to 1m using max, ds:mem | align to 1m using min | map * 2) | compute x using max',
    );
    expect(ops).toMatchObject({ '{"host":"b","cores":8,"canary":true}': { data: [6, 10] } });
  });

  it('exposes histograms as axiom.histogram sub-series and buckets them', async () => {
    expect(await table('ds:lat | where `axiom.histogram` == "count" or `axiom.histogram` == "max"')).toEqual({
      '{"service":"api","axiom.histogram":"count"}': { start: 5, res: 60, data: [3, 1] },
      '{"service":"api","axiom.histogram":"max"}': { start: 5, res: 60, data: [2, N] },
    });
    expect(
      await table('ds:lat | bucket by service to 1m using interpolate_delta_histogram(0.5, count)'),
    ).toEqual({
      '{"service":"api","spec":"p50"}': { start: 0, res: 60, data: [1.25, 0.5] },
      '{"service":"api","spec":"count"}': { start: 0, res: 60, data: [3, 1] },
    });
  });

  it('applies source ranges, sample, ifdef, extend and as', async () => {
    expect(await table('ds:mem[30..+1m] | align to 1m using max')).toEqual({
      '{"host":"a","cores":4}': { start: 0, res: 60, data: [N, 2] },
      '{"host":"b","cores":8,"canary":true}': { start: 0, res: 60, data: [N, 5] },
    });
    expect(Object.keys(await table('ds:mem | sample 0 | align to 1m using max'))).toEqual([]);
    expect(Object.keys(await table('ds:mem | sample 1 | align to 1m using max'))).toHaveLength(2);
    const ifdef = 'param $h: string; ds:mem | ifdef($h) { where host == $h } | align to 1m using max';
    expect(Object.keys(await table(ifdef))).toHaveLength(2);
    expect(Object.keys(await table(ifdef, { params: { param__h: '"a"' } }))).toEqual([
      '{"host":"a","cores":4}',
    ]);
    const ext = await run(
      'ds:mem | align to 1m using max | group by host using sum | extend label = "host-${host}", n = 2 | as m2',
    );
    expect(ext.series.map((s) => [s.metric, s.tags])).toEqual([
      ['m2', { host: 'a', label: 'host-a', n: 2 }],
      ['m2', { host: 'b', label: 'host-b', n: 2 }],
    ]);
    expect((await failure('ds:mem | extend host = "x"')).message).toContain('tag "host" already exists');
  });

  it('stops when its signal aborts (the client went away)', async () => {
    const aborted = runMpl('ds:mem | align to 1m using max', {
      source,
      startSec: 0,
      endSec: 120,
      nowSec: 1000,
      signal: AbortSignal.abort(),
    });
    await expect(aborted).rejects.toMatchObject({ kind: 'unavailable', code: 'query_aborted' });
  });

  it('returns an empty result for an unknown metric and not_found for an unknown dataset', async () => {
    expect((await run('ds:nope | align to 1m using avg')).series).toEqual([]);
    expect((await failure('other:req')).kind).toBe('not_found');
  });

  it('reports custom_unit, group keys and undeclared params in the v2 metadata', async () => {
    const result = await run(
      'set custom_unit = "ms"; ds:mem | align to 1m using max | group by host using sum',
      { params: { param__x: '1' } },
    );
    expect(renderMpl(result, 'metrics-v2')).toMatchObject({
      metadata: {
        group_keys: ['host'],
        custom_unit: 'ms',
        warnings: ['param__x was supplied but not declared'],
      },
      series: [
        { metric: 'mem', tags: { host: 'a' }, start: 0, resolution: 60, data: [1, 2], summary: 2 },
        { summary: 5 },
      ],
    });
  });
});

describe('metadata.unit', () => {
  const withUnit = (metric: string, unit: string | null) => ({
    ...scalar(metric, { host: 'a' }, [[0, 1]]),
    unit,
  });
  const units = sourceOf('u', withUnit('lat', 'ms'), withUnit('size', 'By'), withUnit('bare', null));
  const unitOf = async (mpl: string) =>
    (
      renderMpl(await runMpl(mpl, { source: units, startSec: 0, endSec: 60, nowSec: 60 }), 'metrics-v2') as {
        metadata: { unit: string };
      }
    ).metadata.unit;

  it('is the OTLP unit of the series read, and empty when they disagree or have none', async () => {
    expect(await unitOf('u:lat | align to 1m using avg')).toBe('ms');
    expect(await unitOf('(u:lat, u:size) | compute x using +')).toBe('');
    expect(await unitOf('u:bare | align to 1m using avg')).toBe('');
  });
});

describe('validateMpl and datasetsOfMpl', () => {
  it('returns [] for a valid query and one diagnostic with position otherwise', () => {
    expect(validateMpl('ds:m | align to 5m using avg')).toEqual([]);
    const [d] = validateMpl('ds:m | align to 5m using avgg');
    expect(d).toMatchObject({ code: 'mpl_unknown_function', span: { line: 1, column: 26 } });
    expect(validateMpl('ds:m | where a == #/(/')[0].message).toContain('invalid regex');
    expect(validateMpl('param $d: Dataset; $d:m')[0].code).toBe('mpl_param');
  });

  it('lists the datasets of every sub-query, params resolved', () => {
    expect(
      datasetsOfMpl('param $d: Dataset; ($d:m, `b.c`:n) | compute x using +', { param__d: 'a' }).sort(),
    ).toEqual(['a', 'b.c']);
  });
});
