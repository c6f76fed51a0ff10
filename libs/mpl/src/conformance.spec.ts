/**
 * Runs the MPL conformance corpus (test/conformance/mpl) in-process: points.json loaded as ingest would
 * store it, every case through runMpl + renderMpl('metrics-v2') + the corpus's comparison rules.
 * A QuarryError of kind `invalid` stands for HTTP 400.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isQuarryError } from '@quarry/common';
import { renderMpl, runMpl } from './index';
import { compareCase, type CaseSeries, type ConformanceCase } from './testing/compare-result';
import { corpusSource, type CorpusPoints } from './testing/corpus-points';
import { seriesSplittingOffload } from './testing/series-splitting-offload';

const DIR = join(__dirname, '../../../test/conformance/mpl');
const cases = readFileSync(join(DIR, 'cases.jsonl'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as ConformanceCase);
const source = corpusSource(JSON.parse(readFileSync(join(DIR, 'points.json'), 'utf8')) as CorpusPoints);

async function answer(c: ConformanceCase, split = false): Promise<{ status: number; series?: CaseSeries[] }> {
  const startSec = Date.parse(c.startTime) / 1000;
  const endSec = Date.parse(c.endTime) / 1000;
  const params = Object.fromEntries(Object.entries(c.params ?? {}).map(([k, v]) => [`param__${k}`, v]));
  try {
    const options = { source, startSec, endSec, nowSec: endSec, params };
    const offload = split ? seriesSplittingOffload(c.mpl, options, 2) : undefined;
    const result = await runMpl(c.mpl, { ...options, offload });
    const body = renderMpl(result, 'metrics-v2') as { series: CaseSeries[] };
    return { status: 200, series: body.series };
  } catch (err) {
    if (isQuarryError(err) && err.kind === 'invalid') return { status: 400 };
    if (isQuarryError(err) && err.kind === 'not_found') return { status: 404 };
    throw err;
  }
}

describe('MPL conformance corpus', () => {
  it('has the corpus', () => expect(cases.length).toBeGreaterThanOrEqual(48));
  for (const c of cases) {
    it(c.id, async () => {
      const { status, series } = await answer(c);
      const verdict = compareCase(c, status, series);
      expect(verdict.reason ?? 'ok').toBe('ok');
    });
  }
});

// The corpus again with every splittable query split over two imaginary query nodes.
describe('MPL conformance corpus split over series', () => {
  for (const c of cases) {
    it(c.id, async () => {
      const { status, series } = await answer(c, true);
      expect(compareCase(c, status, series).reason ?? 'ok').toBe('ok');
    });
  }
});
