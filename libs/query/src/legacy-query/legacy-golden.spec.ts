/**
 * Golden files for the legacy-query translation: golden/*.json (a legacy query body) → *.expected (the
 * APL it runs as, then the result table over test/golden/apl/events.ndjson as dataset `ds`).
 * `UPDATE_GOLDEN=1` rewrites the expected files; read the diff before committing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isQuarryError } from '@quarry/common';
import { runApl } from '../run-apl';
import { MemoryCatalog } from '../testing/memory-catalog';
import { parseLegacyQuery } from './legacy-query';
import { legacyQueryToApl } from './legacy-to-apl';

const DIR = join(__dirname, 'golden');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
const EVENTS = readFileSync(join(__dirname, '../../../../test/golden/apl/events.ndjson'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const catalog = new MemoryCatalog({ ds: EVENTS }, { batchSize: 3, sysTimeMs: Date.UTC(2024, 5, 1) });
const WINDOW = { startMs: Date.UTC(2024, 4, 1), endMs: Date.UTC(2024, 4, 2) };

async function table(apl: string): Promise<string> {
  try {
    const out = await runApl(apl, { ...WINDOW, nowMs: WINDOW.endMs, catalog });
    const t = out.tables[0];
    const lines = [t.fields.map((f) => `${f.name}:${f.type}`).join(', ')];
    for (let i = 0; i < (t.columns[0]?.length ?? 0); i++)
      lines.push(JSON.stringify(t.columns.map((c) => c[i])));
    return lines.join('\n');
  } catch (err) {
    if (isQuarryError(err)) return `error ${err.kind} ${err.code}`;
    throw err;
  }
}

async function render(body: unknown): Promise<string> {
  const translation = legacyQueryToApl('ds', parseLegacyQuery(body), WINDOW);
  if (translation.kind === 'matches')
    return `-- matches\n${translation.apl}\n\n${await table(translation.apl)}\n`;
  const labels = translation.aggregations.map((a) => `${a.label}×${a.width}`).join(', ');
  return [
    `-- totals (aggregations: ${labels})`,
    translation.totalsApl,
    '',
    await table(translation.totalsApl),
    '',
    `-- series (${translation.bucketMs} ms buckets)`,
    translation.seriesApl,
    '',
    await table(translation.seriesApl),
    '',
  ].join('\n');
}

describe('legacy query golden files', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
  it('has golden queries', () => expect(files.length).toBeGreaterThan(3));
  for (const file of files) {
    it(file, async () => {
      const actual = await render(JSON.parse(readFileSync(join(DIR, file), 'utf8')));
      const expectedPath = join(DIR, file.replace(/\.json$/, '.expected'));
      if (UPDATE || !existsSync(expectedPath)) writeFileSync(expectedPath, actual);
      expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
    });
  }
});
