/**
 * Arrays known to hold `long` elements only.
 *
 * Kusto's dynamic values keep each element's type, so `dynamic([1, 2])` holds longs and `dynamic([1.0,
 * 2.0])` reals, and some series functions answer by that type: `series_fill_linear` of a long series
 * truncates what it interpolates (its page: `[null, 111, null, 36]` fills 73, where the real series fills
 * 73.5). A JS number has no such type, so the sources that know it remember the array here: a `dynamic(...)`
 * literal whose numbers are all written as integers, `parse_json`/`todynamic` of such text, and
 * `make-series` of an aggregate typed long (`count()`, `dcount`, `sum` of longs). An array from anywhere
 * else (stored events, whose JSON was re-serialized at ingest, and computed series) is not marked and
 * counts as real. The mark belongs to the array object: a copy, or an
 * array that crossed to another thread, is unmarked.
 */
const longArrays = new WeakSet<readonly unknown[]>();

/** Marks `array` as holding longs only, and returns it. */
export function markLongArray<T extends readonly unknown[]>(array: T): T {
  longArrays.add(array);
  return array;
}

export function isLongArray(value: unknown): boolean {
  return Array.isArray(value) && longArrays.has(value);
}

/**
 * Marks the arrays of `value`, the result of `JSON.parse(text)`, whose elements are numbers written as
 * integers (and nulls, at least one number), as a `dynamic(...)` literal's are: Kusto's `parse_json` types
 * `[1, null, 4]` as longs, and `JSON.parse` keeps no such type. The text is scanned once for each array's
 * path and verdict; the verdicts are then applied by path, so duplicate keys (the last one wins, as in
 * `JSON.parse`) and keys that JavaScript reorders (`"1"` before `"b"`) find the right array.
 */
export function markJsonLongArrays(text: string, value: unknown): void {
  if (value === null || typeof value !== 'object' || !text.includes('[')) return;
  for (const [path, isLong] of scanJsonArrays(text)) {
    if (!isLong) continue;
    let at: unknown = value;
    for (const step of path) at = at !== null && typeof at === 'object' ? (at as never)[step] : undefined;
    if (Array.isArray(at)) markLongArray(at);
  }
}

/** Each array of valid JSON `text` by its path (keys and indexes), with whether it holds integer numbers only. */
function scanJsonArrays(text: string): Array<[(string | number)[], boolean]> {
  const verdicts = new Map<string, [(string | number)[], boolean]>();
  // One frame per open container: its path, the next index (arrays) or the pending key (objects).
  type Frame = {
    path: (string | number)[];
    array: boolean;
    index: number;
    key: string;
    numbers: number;
    long: boolean;
  };
  const stack: Frame[] = [];
  let i = 0;
  const childPath = (): (string | number)[] => {
    const top = stack[stack.length - 1];
    return top === undefined ? [] : [...top.path, top.array ? top.index : top.key];
  };
  /** A scalar (or a closed container) took the place of the current element. */
  const element = (kind: 'int' | 'real' | 'null' | 'other'): void => {
    const top = stack[stack.length - 1];
    if (top === undefined || !top.array) return;
    if (kind === 'int') top.numbers++;
    else if (kind !== 'null') top.long = false;
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      const str = text.slice(i, j + 1);
      i = j + 1;
      let k = i;
      while (k < text.length && (text[k] === ' ' || text[k] === '\t' || text[k] === '\n' || text[k] === '\r'))
        k++;
      const top = stack[stack.length - 1];
      if (text[k] === ':' && top !== undefined && !top.array) {
        top.key = JSON.parse(str) as string;
        i = k + 1;
      } else element('other');
      continue;
    }
    if (c === '[' || c === '{') {
      stack.push({ path: childPath(), array: c === '[', index: 0, key: '', numbers: 0, long: true });
      i++;
      continue;
    }
    if (c === ']' || c === '}') {
      const frame = stack.pop()!;
      // Keyed by the steps as text: `a[0]` and `a["0"]` reach the same array, so the later wins.
      if (frame.array)
        verdicts.set(JSON.stringify(frame.path.map(String)), [frame.path, frame.long && frame.numbers > 0]);
      element('other');
      i++;
      continue;
    }
    if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.array) top.index++;
      i++;
      continue;
    }
    if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[0-9.eE+-]/.test(text[j])) j++;
      element(/[.eE]/.test(text.slice(i, j)) ? 'real' : 'int');
      i = j;
      continue;
    }
    if (text.startsWith('null', i)) {
      element('null');
      i += 4;
      continue;
    }
    if (text.startsWith('true', i) || text.startsWith('false', i)) {
      element('other');
      i += text[i] === 't' ? 4 : 5;
      continue;
    }
    i++; // whitespace and ':'
  }
  return [...verdicts.values()];
}
