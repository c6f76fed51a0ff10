/**
 * docs/apl-errors.md is generated from the diagnostics table of @quarry/apl: every code, its meaning, an
 * example query and the message the engine actually produces for it. This test fails when the document is
 * stale; `UPDATE_DOCS=1 npx jest libs/query/src/diagnostics-doc.spec.ts` regenerates it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { DIAGNOSTICS } from '@quarry/apl';
import { isQuarryError, type QuarryError } from '@quarry/common';
import { runApl } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const DOC = path.resolve(__dirname, '../../../docs/apl-errors.md');

const catalog = new MemoryCatalog({
  ds: [
    { _time: '2024-05-01T00:10:00Z', method: 'GET', status: 200, a: 'x', b: 'y' },
    { _time: '2024-05-01T00:20:00Z', method: 'POST', status: 500, a: 'z', b: 'w' },
  ],
});

async function errorOf(text: string): Promise<QuarryError> {
  try {
    await runApl(text, {
      startMs: Date.UTC(2024, 4, 1),
      endMs: Date.UTC(2024, 4, 2),
      nowMs: Date.UTC(2024, 4, 2),
      catalog,
    });
  } catch (err) {
    if (isQuarryError(err)) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(text)} to fail`);
}

const shorten = (s: string, n = 80) => (s.length > n ? `${s.slice(0, n)}…` : s);
const cell = (s: string) => s.replace(/\|/g, '\\|');

async function render(): Promise<string> {
  const out: string[] = [
    '# APL error codes',
    '',
    '<!-- Generated from libs/apl/src/diagnostics.ts by libs/query/src/diagnostics-doc.spec.ts;',
    '     regenerate with: UPDATE_DOCS=1 npx jest libs/query/src/diagnostics-doc.spec.ts -->',
    '',
    'Every error in an APL query (syntax or semantics) is answered with HTTP **400** and a JSON body:',
    '',
    '```json',
    '{',
    '  "code": 400,',
    '  "message": "unknown function \'coutn\' at 1:34; did you mean \'count\'?",',
    '  "error": "apl_unknown_function",',
    '  "detail": { "name": "coutn", "suggestion": "count", "line": 1, "column": 34 }',
    '}',
    '```',
    '',
    '- `error` is one of the stable codes below; clients should branch on it, not on the message.',
    '- `detail.line` / `detail.column` (1-based) locate the problem in the query text; the message ends with',
    "  the same `line:column`, then `; did you mean '…'?` when a close name exists (unknown functions,",
    '  operators, fields, timespan units, join/search/parse kinds and misspelled keywords). Suggestions use',
    '  the Damerau-Levenshtein distance, a case-insensitive exact match first (`Method` → `method`).',
    '- `detail` also carries the parameters of the message (`name`, `expected`, `got`, ...).',
    '- Names are checked before execution; only a regular expression computed per row can fail while the',
    '  query runs, and that error points at the start of the query.',
    '- An unknown dataset is not an APL error: it is answered with 404 (`dataset_not_found`).',
    '',
    '| Code | Phase | Meaning | Example query | Message |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const d of DIAGNOSTICS) {
    let example = '';
    let message = '';
    if (d.example) {
      const err = await errorOf(d.example);
      expect({ example: d.example, code: err.code }).toEqual({ example: d.example, code: d.code });
      example = `\`${cell(shorten(d.example))}\``;
      message = cell(shorten(err.message, 120));
    }
    out.push(`| \`${d.code}\` | ${d.phase} | ${cell(d.meaning)} | ${example} | ${message} |`);
  }
  // Formatted as the repository's `prettier --check` expects it.
  // (Prettier 3 is ESM-only inside jest, so it runs as a process.)
  const bin = path.resolve(__dirname, '../../../node_modules/.bin/prettier');
  return execFileSync(bin, ['--stdin-filepath', DOC], { input: out.join('\n') + '\n', encoding: 'utf8' });
}

describe('docs/apl-errors.md', () => {
  it('lists every diagnostic code with an example that raises it', async () => {
    const text = await render();
    if (process.env.UPDATE_DOCS) fs.writeFileSync(DOC, text);
    const doc = fs.readFileSync(DOC, 'utf8');
    for (const d of DIAGNOSTICS) expect(doc).toMatch(new RegExp(`\\| \`${d.code}\` +\\|`));
    expect(doc).toBe(text);
  });
});
