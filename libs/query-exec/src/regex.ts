/**
 * User regexes run on RE2 (linear time), never on backtracking JS RegExp. Compiled patterns are cached
 * per process because queries reuse a handful of constant patterns across millions of rows.
 */
import RE2 from 're2';
import { QuarryError } from '@quarry/common';

const cache = new Map<string, RE2>();

export function compileRegex(pattern: string, flags = ''): RE2 {
  const key = flags + '/' + pattern;
  let re = cache.get(key);
  if (re) return re;
  try {
    re = new RE2(pattern, flags);
  } catch (err) {
    throw new QuarryError('invalid', `invalid regular expression '${pattern}': ${(err as Error).message}`, {
      code: 'apl_invalid_regex',
      cause: err,
    });
  }
  if (cache.size > 1000) cache.clear();
  cache.set(key, re);
  return re;
}
