/**
 * Golden files: test/golden/apl/*.apl → *.expected (text tables). `UPDATE_GOLDEN=1` rewrites the
 * expected files; review the diff against the documented semantics before committing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isQuarryError } from '@quarry/common';
import { runApl } from './run-apl';
import type { AggregateOffload } from '@quarry/query-exec';
import { MemoryCatalog } from './testing/memory-catalog';
import { splittingOffload } from './testing/splitting-offload';

const DIR = join(__dirname, '../../../test/golden/apl');
const UPDATE = process.env.UPDATE_GOLDEN === '1';
/** `GOLDEN_FILTER=fn-` runs (and with UPDATE_GOLDEN, rewrites) only the files whose name starts with it. */
const FILTER = process.env.GOLDEN_FILTER ?? '';

const readEvents = (file: string) =>
  readFileSync(join(DIR, file), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const catalog = new MemoryCatalog(
  {
    ds: readEvents('events.ndjson'),
    ds2: readEvents('events2.ndjson'),
    nested: readEvents('events3.ndjson'),
  },
  { batchSize: 3, sysTimeMs: Date.UTC(2024, 5, 1) },
);
/** Virtual fields of the golden datasets (README). */
const VIRTUAL_FIELDS: Record<string, { name: string; expression: string }[]> = {
  ds2: [{ name: 'is_error', expression: 'toint(status) >= 500' }],
};

async function render(query: string, offload?: AggregateOffload): Promise<string> {
  try {
    const out = await runApl(query, {
      startMs: Date.UTC(2024, 4, 1),
      endMs: Date.UTC(2024, 4, 2),
      nowMs: Date.UTC(2024, 4, 2),
      catalog,
      virtualFields: (dataset) => VIRTUAL_FIELDS[dataset] ?? [],
      offload,
    });
    const t = out.tables[0];
    const lines = [t.fields.map((f) => `${f.name}:${f.type}`).join(', ')];
    const n = t.columns[0]?.length ?? 0;
    for (let i = 0; i < n; i++) lines.push(JSON.stringify(t.columns.map((c) => c[i])));
    return lines.join('\n') + '\n';
  } catch (err) {
    if (isQuarryError(err)) return `error ${err.kind} ${err.code}\n`;
    throw err;
  }
}

describe('APL golden files', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.apl') && f.startsWith(FILTER));
  it('has golden queries', () => expect(files.length).toBeGreaterThan(FILTER ? 0 : 10));
  for (const file of files) {
    it(file, async () => {
      const actual = await render(readFileSync(join(DIR, file), 'utf8'));
      const expectedPath = join(DIR, file.replace(/\.apl$/, '.expected'));
      if (UPDATE || !existsSync(expectedPath)) {
        if (!UPDATE) throw new Error(`missing ${expectedPath}; run with UPDATE_GOLDEN=1`);
        writeFileSync(expectedPath, actual);
        return;
      }
      expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
    });
  }
});

// Every golden query again with each summarize split in two parts, one of them computed as a worker
// thread would (partial state through structuredClone, then merged), and each take or top over a
// filtered scan read block by block as other query nodes read it: the answers must not change.
describe('APL golden files with summarize, take and top split', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.apl') && f.startsWith(FILTER));
  const offload = splittingOffload();
  for (const file of files) {
    const expectedPath = join(DIR, file.replace(/\.apl$/, '.expected'));
    it(file, async () => {
      const actual = await render(readFileSync(join(DIR, file), 'utf8'), offload);
      expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
    });
  }
  it('split some summarizes', () => expect(offload.splits).toBeGreaterThan(FILTER ? 0 : 50));
  it('split some takes and tops', () => expect(offload.rowSplits).toBeGreaterThan(FILTER ? 0 : 10));
});
