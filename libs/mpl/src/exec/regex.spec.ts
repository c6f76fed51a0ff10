import { isQuarryError, type QuarryError } from '@quarry/common';
import { runMpl, validateMpl } from '../mpl';
import { scalar, sourceOf } from '../testing/fixtures';

// A tag value that makes a backtracking engine try every split of 30,000 a's before failing.
const EVIL = 'a'.repeat(30_000) + '!';
const source = sourceOf(
  'ds',
  scalar('m', { name: EVIL }, [[0, 1]]),
  scalar('m', { name: 'aaa' }, [[0, 2]]),
  scalar('m', { name: 'xA' }, [[0, 3]]),
);

async function names(mpl: string, params?: Record<string, string>): Promise<string[]> {
  const result = await runMpl(mpl, { source, startSec: 0, endSec: 60, nowSec: 60, params });
  return result.series.map((s) => String(s.tags.name).slice(0, 8)).sort();
}

async function failure(mpl: string, params?: Record<string, string>): Promise<QuarryError> {
  const err = await names(mpl, params).then(
    () => null,
    (e: unknown) => e,
  );
  if (!isQuarryError(err)) throw new Error(`expected a QuarryError, got ${String(err)}`);
  return err;
}

describe('MPL regexes on RE2', () => {
  it('answers a catastrophic-backtracking pattern in linear time', async () => {
    const started = Date.now();
    expect(await names('ds:m | where name == #/(a+)+$/')).toEqual(['aaa']);
    expect(await names('ds:m | where name == #/^(a|aa)+$/')).toEqual(['aaa']);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('keeps Rust-style inline flags anywhere in the pattern', async () => {
    expect(await names('ds:m | where name == #/x(?i)a/')).toEqual(['xA']);
    expect(await names('ds:m | where name == #/(?i)XA/')).toEqual(['xA']);
  });

  it.each([
    ['lookahead', 'ds:m | where name == #/a(?=b)/', 'lookaround is not supported ((?=)', 25],
    ['negative lookbehind', 'ds:m | where name == #/(?<!x)a/', 'lookaround is not supported ((?<!)', 24],
    ['a backreference', 'ds:m | where name != #/(a)\\1/', 'backreferences are not supported (\\1)', 27],
    ['the verbose flag', 'ds:m | where name == #/(?x) a/', 'the x (verbose) flag is not supported', 24],
  ])('rejects %s with a 400 pointing at the construct', async (_what, mpl, message, column) => {
    const err = await failure(mpl);
    expect(err.kind).toBe('invalid');
    expect(err.code).toBe('mpl_invalid_regex');
    expect(err.message).toContain(message);
    expect(err.message).toContain('MPL regexes use RE2 syntax');
    expect(err.message).toMatch(new RegExp(` at 1:${column}$`));
    expect(err.span).toMatchObject({ line: 1, column, start: column - 1 });
  });

  it('reports other RE2 errors with its own reason and the literal position', async () => {
    const err = await failure('ds:m | where name == #/[z-a]/');
    expect(err.message).toBe('invalid regex #/[z-a]/: invalid character class range: z-a at 1:25');
    // validateMpl finds it without running the query.
    expect(validateMpl('ds:m | where name == #/(a+/')[0]).toMatchObject({
      code: 'mpl_invalid_regex',
      message: 'invalid regex #/(a+/: missing ): (a+ at 1:24',
      span: { line: 1, column: 24 },
    });
  });

  it('names a Regex param and points at its reference', async () => {
    const err = await failure('param $r: Regex; ds:m | where name == $r', { param__r: '#/(?=a)/' });
    expect(err.message).toMatch(/^invalid regex param \$r \(#\/\(\?=a\)\/\): lookaround is not supported/);
    expect(err.span).toMatchObject({ line: 1, column: 39 });
  });
});
