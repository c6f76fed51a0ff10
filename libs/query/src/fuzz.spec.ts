/**
 * Property: any input text — random garbage or a mutated valid query — either runs or fails with a
 * QuarryError of kind `invalid` (or `not_found` for a dataset name the mutation invented) that carries a
 * span inside the text (an `invalid` message also names that position); never a TypeError or an internal
 * error.
 */
import fc from 'fast-check';
import { isQuarryError } from '@quarry/common';
import { runApl, validateApl } from './run-apl';
import { MemoryCatalog } from './testing/memory-catalog';

const catalog = new MemoryCatalog(
  {
    ds: [
      {
        _time: '2024-05-01T00:10:00Z',
        method: 'GET',
        status: '200',
        dur: 1.5,
        tags: ['a'],
        retry: 3,
        geo: { city: 'Paris' },
      },
      { _time: '2024-05-01T00:20:00Z', method: 'POST', status: '500', dur: null, retry: 'x' },
    ],
  },
  { batchSize: 1 },
);

const VALID = [
  `ds | where status == "200" | summarize c = count() by method`,
  `ds | extend x = strlen(method) + 1 | project x, method | take 5`,
  `ds | where method in ("GET", "PUT") and dur between (1 .. 2) | sort by dur asc`,
  `ds | summarize avg(dur), dcount(method), percentile(dur, 50) by bin(_time, 1h)`,
  `let t = 5; ds | where toint(retry) < t | top 3 by _time`,
  `print a = datetime(2024-05-01 10:00), b = dynamic({"k": [1, 2]}), c = 1h / 1m`,
  `ds | where method has "x" or tags[0] == "a" | project-away dur`,
  `ds | parse method with "G" rest | distinct rest`,
  `search in (d*) "GET" and method:"g*t" and not "x?z" | take 3`,
  `ds | where method in ((ds | where dur > 1 | project method)) | extend-valid x = tags | mv-expand x, tags`,
  `ds | parse-kv status as (a:long) with (pair_delimiter=",", kv_delimiter="=") | redact @"\\d" on status | project-reorder s* granny-asc`,
  `print s = series_stats_dynamic(dynamic([1, null, 2])), r = range(1, 3), h = hash("x") | extend series_stats(dynamic([1, 2]))`,
  `union withsource=src d*, ds | summarize phrases(method, 2), presence(*), percentiles_arrayif(dur, dynamic([50]), dur > 0) by src`,
];

const TOKENS = [
  '|',
  '(',
  ')',
  '[',
  ']',
  ',',
  '"',
  "'",
  '==',
  '=',
  '..',
  'where',
  'summarize',
  'by',
  'count()',
  '1h',
  'and',
  ' ',
  '//',
  '\n',
  '@',
  '-',
  '*',
  'datetime(',
  'dynamic(',
  'in',
  '!',
  '~',
  ';',
  'let',
  'x',
  '1e',
  '0.',
  '```',
  'null',
  'search',
  ':',
  'union',
  'in ((',
];

/** A user error with a span that addresses the text (and, for `invalid`, a message naming it). */
function outcomeOk(err: unknown, text: string): boolean {
  if (!isQuarryError(err) || (err.kind !== 'invalid' && err.kind !== 'not_found')) return false;
  const span = err.span;
  if (!span || span.start < 0 || span.start > span.end || span.end > text.length) return false;
  const lines = text.split('\n');
  if (span.line < 1 || span.line > lines.length) return false;
  if (span.column < 1 || span.column > lines[span.line - 1].length + 1) return false;
  return err.kind !== 'invalid' || err.message.includes(` at ${span.line}:${span.column}`);
}

const describeError = (err: unknown) =>
  isQuarryError(err)
    ? `${err.kind}/${err.code}: ${err.message} span=${JSON.stringify(err.span)}`
    : ((err as Error)?.stack ?? String(err));

async function check(text: string): Promise<void> {
  try {
    validateApl(text);
  } catch (err) {
    if (!outcomeOk(err, text))
      throw new Error(`validateApl(${JSON.stringify(text)}) threw ${describeError(err)}`);
  }
  try {
    await runApl(text, {
      startMs: Date.UTC(2024, 4, 1),
      endMs: Date.UTC(2024, 4, 2),
      nowMs: Date.UTC(2024, 4, 2),
      catalog,
    });
  } catch (err) {
    if (!outcomeOk(err, text)) throw new Error(`runApl(${JSON.stringify(text)}) threw ${describeError(err)}`);
  }
}

describe('APL robustness', () => {
  it('garbage input only produces invalid errors with a span', async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 60 }), check), { numRuns: 2000 });
  });

  it('mutated valid queries only produce invalid errors with a span', async () => {
    const mutation = fc.record({
      base: fc.constantFrom(...VALID),
      at: fc.nat(),
      cut: fc.nat({ max: 6 }),
      insert: fc.array(fc.constantFrom(...TOKENS), { maxLength: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(mutation, async ({ base, at, cut, insert }) => {
        const i = at % (base.length + 1);
        await check(base.slice(0, i) + insert.join('') + base.slice(i + cut));
      }),
      { numRuns: 3000 },
    );
  });

  it('valid seeds run', async () => {
    for (const q of VALID)
      await expect(
        runApl(q, { startMs: Date.UTC(2024, 4, 1), endMs: Date.UTC(2024, 4, 2), nowMs: 0, catalog }),
      ).resolves.toBeDefined();
  });
});
