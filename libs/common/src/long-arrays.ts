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
 * `[1, null, 4]` as longs, and `JSON.parse` keeps no such type.
 *
 * `parse_json` runs over every row of a query, so the text is read again only when it must be. The
 * arrays that could qualify are those of `value` holding whole numbers and nulls; when there are none, or
 * the text has no number that may be whole but written as a real (`4.0`, `1e2`, or digits enough to
 * round to a whole number: `MAYBE_WHOLE_REAL`), they all qualify. Otherwise the text is scanned for each array's verdict,
 * applied by path, so that repeated keys (the last one wins, as in `JSON.parse`) and keys that JavaScript
 * reorders (`"1"` before `"b"`) find the right array.
 */
export function markJsonLongArrays(text: string, value: unknown): void {
  if (value === null || typeof value !== 'object' || !MAYBE_NUMBER_ARRAY.test(text)) return;
  const { arrays, large } = wholeNumberArrays(value);
  if (arrays.length === 0) return;
  if (!large && !MAYBE_WHOLE_REAL.test(text)) {
    for (const array of arrays) markLongArray(array);
    return;
  }
  for (const path of longArrayPaths(text)) {
    let at: unknown = value;
    for (const step of path) at = at !== null && typeof at === 'object' ? (at as never)[step] : undefined;
    if (Array.isArray(at)) markLongArray(at);
  }
}

/** An array that starts with a number or null: one that qualifies does (false alarms only cost a walk). */
const MAYBE_NUMBER_ARRAY = /\[\s*[-0-9n]/;

/**
 * A number token whose value may be whole although it is written as a real: an exponent, a fraction that
 * starts with 0 (`4.0`, also `4.05`), or one of 7 digits or more. A shorter fraction that is not all zeros
 * keeps a number under `WHOLE_REAL_SAFE_BELOW` off a whole number (float64 spacing there is under 2^-23),
 * and larger numbers are always scanned. False alarms only cost a scan; the pattern starts at a digit so
 * that it runs at the speed of a plain search.
 */
const MAYBE_WHOLE_REAL = /\d(?:\.0|[eE][+-]?\d|\.\d{7})/;
const WHOLE_REAL_SAFE_BELOW = 1e9;

/**
 * The arrays within `value` whose elements are whole numbers and nulls, at least one number, and whether
 * one of their numbers is as large as `WHOLE_REAL_SAFE_BELOW`.
 */
function wholeNumberArrays(value: unknown): { arrays: unknown[][]; large: boolean } {
  const found: unknown[][] = [];
  let large = false;
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const v = pending.pop() as object;
    if (!Array.isArray(v)) {
      for (const key in v) {
        const e = (v as Record<string, unknown>)[key];
        if (e !== null && typeof e === 'object') pending.push(e);
      }
      continue;
    }
    let wholeOnly = true;
    let numbers = 0;
    let largest = 0;
    for (const e of v) {
      if (typeof e === 'number' && Number.isInteger(e)) {
        numbers++;
        largest = Math.max(largest, Math.abs(e));
      } else if (e !== null) {
        wholeOnly = false;
        if (typeof e === 'object') pending.push(e);
      }
    }
    if (wholeOnly && numbers > 0) {
      found.push(v);
      large ||= largest >= WHOLE_REAL_SAFE_BELOW;
    }
  }
  return { arrays: found, large };
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_N = 0x6e;
const LOWER_T = 0x74;
const LOWER_F = 0x66;

const isJsonSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;

/** An open array or object while `longArrayPaths` scans. */
interface OpenContainer {
  array: boolean;
  /** The element being read (arrays) or the key of the value being read (objects). */
  index: number;
  key: string;
  /** Integer-written numbers so far, and whether every element so far was one or null. */
  numbers: number;
  long: boolean;
}

/**
 * The paths (keys and indexes) of the arrays of valid JSON `text` that hold integer-written numbers and
 * nulls only, at least one number: the slow way, for the texts `markJsonLongArrays` cannot decide at a
 * glance. Nothing is allocated per number or per string, and a path only for an array that qualifies. A
 * later array at the same path (a repeated key) replaces the verdict of an earlier one.
 */
function longArrayPaths(text: string): Iterable<(string | number)[]> {
  const verdicts = new Map<string, (string | number)[]>();
  const open: OpenContainer[] = [];
  /** A scalar (or a closed container) took the place of the current element. */
  const element = (kind: 'int' | 'real' | 'null' | 'other'): void => {
    const top = open[open.length - 1];
    if (top === undefined || !top.array) return;
    if (kind === 'int') top.numbers++;
    else if (kind !== 'null') top.long = false;
  };
  let i = 0;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      let j = i + 1;
      let escaped = false;
      for (let code = text.charCodeAt(j); code !== QUOTE; code = text.charCodeAt(j)) {
        if (code === BACKSLASH) escaped = true;
        j += code === BACKSLASH ? 2 : 1;
      }
      const end = j + 1;
      while (j + 1 < text.length && isJsonSpace(text.charCodeAt(j + 1))) j++;
      const top = open[open.length - 1];
      if (text.charCodeAt(j + 1) === COLON && top !== undefined && !top.array) {
        top.key = escaped ? (JSON.parse(text.slice(i, end)) as string) : text.slice(i + 1, end - 1);
        i = j + 2;
      } else {
        element('other');
        i = end;
      }
      continue;
    }
    if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      open.push({ array: c === OPEN_BRACKET, index: 0, key: '', numbers: 0, long: true });
      i++;
      continue;
    }
    if (c === CLOSE_BRACKET || c === CLOSE_BRACE) {
      const closed = open.pop()!;
      if (closed.array) {
        const qualifies = closed.long && closed.numbers > 0;
        if (qualifies || verdicts.size > 0) {
          // Each enclosing container still points at the one just closed.
          const path = open.map((o) => (o.array ? o.index : o.key));
          // Keyed by the steps as text: `a[0]` and `a["0"]` reach the same array, so the later wins.
          const key = JSON.stringify(path.map(String));
          if (qualifies) verdicts.set(key, path);
          else verdicts.delete(key);
        }
      }
      element('other');
      i++;
      continue;
    }
    if (c === COMMA) {
      const top = open[open.length - 1];
      if (top?.array) top.index++;
      i++;
      continue;
    }
    if (c === MINUS || (c >= DIGIT_0 && c <= DIGIT_9)) {
      let real = false;
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === DOT || d === LOWER_E || d === UPPER_E) real = true;
        else if (!((d >= DIGIT_0 && d <= DIGIT_9) || d === MINUS || d === PLUS)) break;
      }
      element(real ? 'real' : 'int');
      continue;
    }
    if (c === LOWER_N) {
      element('null');
      i += 4;
      continue;
    }
    if (c === LOWER_T || c === LOWER_F) {
      element('other');
      i += c === LOWER_T ? 4 : 5;
      continue;
    }
    i++; // whitespace and ':'
  }
  return verdicts.values();
}
