/**
 * Golden files: test/golden/mpl/*.mpl (+ optional *.params.json) → *.expected, over series.json (written
 * by gen.mjs), range 2024-01-01T00:00Z..01:00Z. `UPDATE_GOLDEN=1` rewrites the expected files; review the
 * diff against docs/metrics.md before committing. `GOLDEN_FILTER=prefix` limits the files.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isQuarryError } from '@quarry/common';
import type { HistogramPoint, MetricSeries, MetricTags } from '@quarry/contracts';
import { renderMpl, runMpl } from './index';
import { MemoryMetricsSource } from './testing/memory-metrics-source';
import { seriesSplittingOffload } from './testing/series-splitting-offload';

const DIR = join(__dirname, '../../../test/golden/mpl');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const FILTER = process.env.GOLDEN_FILTER ?? '';

interface GoldenSeries {
  kind: 'scalar' | 'histogram';
  metric: string;
  tags: MetricTags;
  points: [number, number][] | (Omit<HistogramPoint, 'count' | 'bounds'> & { time: number })[];
  temporality?: 'Delta' | 'Cumulative';
  bounds?: number[];
}

const data = JSON.parse(readFileSync(join(DIR, 'series.json'), 'utf8')) as {
  dataset: string;
  t0: number;
  series: GoldenSeries[];
};
const source = new MemoryMetricsSource();
for (const s of data.series) {
  let series: MetricSeries;
  if (s.kind === 'scalar') {
    const points = s.points as [number, number][];
    series = {
      kind: 'scalar',
      metric: s.metric,
      tags: s.tags,
      times: Float64Array.from(points, (p) => p[0]),
      values: Float64Array.from(points, (p) => p[1]),
    };
  } else {
    const points = (s.points as Omit<HistogramPoint, 'count' | 'bounds'>[]).map((p) => ({
      ...p,
      bounds: s.bounds!,
      count: p.counts.reduce((a, b) => a + b, 0),
    }));
    series = { kind: 'histogram', metric: s.metric, tags: s.tags, temporality: s.temporality!, points };
  }
  source.add(data.dataset, series);
}

/** Simple queries split over series across imaginary query nodes (counted in `render`). */
let splits = 0;

async function render(
  query: string,
  params: Record<string, string> | undefined,
  split = false,
): Promise<string> {
  try {
    const options = { source, startSec: data.t0, endSec: data.t0 + 3600, nowSec: data.t0 + 3600, params };
    const offload = split ? seriesSplittingOffload(query, options) : undefined;
    const result = await runMpl(query, { ...options, offload });
    splits += offload?.splits ?? 0;
    const v2 = renderMpl(result, 'metrics-v2') as {
      metadata: { group_keys: string[]; warnings: string[]; custom_unit: string };
      series: { metric: string; tags: object; start: number; resolution: number; data: (number | null)[] }[];
    };
    const lines = [
      `series ${v2.series.length}; group_keys ${JSON.stringify(v2.metadata.group_keys)}${v2.metadata.custom_unit ? `; custom_unit ${v2.metadata.custom_unit}` : ''}`,
    ];
    for (const w of v2.metadata.warnings) lines.push(`warning: ${w}`);
    for (const s of v2.series) {
      lines.push(
        `${s.metric} ${JSON.stringify(s.tags)} start=t0${s.start >= data.t0 ? '+' : ''}${s.start - data.t0} resolution=${s.resolution}`,
      );
      lines.push(`  ${JSON.stringify(s.data.map((v) => (v === null ? null : Number(v.toPrecision(12)))))}`);
    }
    return lines.join('\n') + '\n';
  } catch (err) {
    if (isQuarryError(err)) return `error ${err.kind} ${err.code}: ${err.message}\n`;
    throw err;
  }
}

describe('MPL golden files', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.mpl') && f.startsWith(FILTER));
  it('has golden queries', () => expect(files.length).toBeGreaterThan(FILTER ? 0 : 60));
  for (const file of files) {
    it(file, async () => {
      const paramsPath = join(DIR, file.replace(/\.mpl$/, '.params.json'));
      const params = existsSync(paramsPath)
        ? (JSON.parse(readFileSync(paramsPath, 'utf8')) as Record<string, string>)
        : undefined;
      const actual = await render(readFileSync(join(DIR, file), 'utf8'), params);
      const expectedPath = join(DIR, file.replace(/\.mpl$/, '.expected'));
      if (UPDATE || !existsSync(expectedPath)) {
        if (!UPDATE) throw new Error(`missing ${expectedPath}; run with UPDATE_GOLDEN=1`);
        writeFileSync(expectedPath, actual);
        return;
      }
      expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
    });
  }
});

// Every golden query again with its series split over three imaginary query nodes (each part through
// structuredClone, the parts in another order): the answers must not change, limits and errors included.
describe('MPL golden files split over series', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.mpl') && f.startsWith(FILTER));
  for (const file of files) {
    const expectedPath = join(DIR, file.replace(/\.mpl$/, '.expected'));
    it(file, async () => {
      const paramsPath = join(DIR, file.replace(/\.mpl$/, '.params.json'));
      const params = existsSync(paramsPath)
        ? (JSON.parse(readFileSync(paramsPath, 'utf8')) as Record<string, string>)
        : undefined;
      const actual = await render(readFileSync(join(DIR, file), 'utf8'), params, true);
      expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
    });
  }
  it('split some queries', () => expect(splits).toBeGreaterThan(FILTER ? 0 : 30));
});
