import { MS_PER_MINUTE, roundMicros } from '@quarry/common';

/**
 * Parses times with a Go reference-time layout (`Mon Jan 2 15:04:05 MST 2006`), which is what Axiom's
 * `timestamp-format` takes. A layout is compiled once into a regex plus one setter per capture group.
 * Covers the elements Go's `time.Parse` knows, with Go's quirks that matter for logs: a fraction after the
 * seconds is accepted even when the layout has none, month and day names match case-insensitively, and
 * a zone abbreviation without a known offset is read as UTC.
 */

interface Parts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  /** Fraction of a second as a decimal digit string. */
  frac: string;
  pm: boolean | null;
  offsetMinutes: number;
}

type Setter = (parts: Parts, text: string) => boolean;

export interface CompiledLayout {
  regex: RegExp;
  setters: Setter[];
}

/** Named layouts of Go's `time` package, accepted by name as well. */
export const NAMED_GO_LAYOUTS: Readonly<Record<string, string>> = Object.freeze({
  ANSIC: 'Mon Jan _2 15:04:05 2006',
  UnixDate: 'Mon Jan _2 15:04:05 MST 2006',
  RubyDate: 'Mon Jan 02 15:04:05 -0700 2006',
  RFC822: '02 Jan 06 15:04 MST',
  RFC822Z: '02 Jan 06 15:04 -0700',
  RFC850: 'Monday, 02-Jan-06 15:04:05 MST',
  RFC1123: 'Mon, 02 Jan 2006 15:04:05 MST',
  RFC1123Z: 'Mon, 02 Jan 2006 15:04:05 -0700',
  RFC3339: '2006-01-02T15:04:05Z07:00',
  RFC3339Nano: '2006-01-02T15:04:05.999999999Z07:00',
  Kitchen: '3:04PM',
  Stamp: 'Jan _2 15:04:05',
  StampMilli: 'Jan _2 15:04:05.000',
  StampMicro: 'Jan _2 15:04:05.000000',
  StampNano: 'Jan _2 15:04:05.000000000',
  DateTime: '2006-01-02 15:04:05',
  DateOnly: '2006-01-02',
  TimeOnly: '15:04:05',
});

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const LONG_MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** US abbreviations Go resolves without a location database; everything else reads as UTC. */
const ZONE_ABBREVIATIONS: Record<string, number> = {
  UTC: 0,
  GMT: 0,
  Z: 0,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  CET: 60,
  CEST: 120,
};

const num =
  (field: 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second'): Setter =>
  (p, t) => {
    p[field] = Number(t.trim());
    return true;
  };

const offsetSetter: Setter = (p, t) => {
  if (t === 'Z' || t === 'z') {
    p.offsetMinutes = 0;
    return true;
  }
  const sign = t[0] === '-' ? -1 : 1;
  const digits = t.slice(1).replace(/:/g, '');
  const h = Number(digits.slice(0, 2));
  const m = digits.length >= 4 ? Number(digits.slice(2, 4)) : 0;
  const s = digits.length >= 6 ? Number(digits.slice(4, 6)) : 0;
  if (h > 23 || m > 59 || s > 59) return false;
  p.offsetMinutes = sign * (h * 60 + m + s / 60);
  return true;
};

const FRACTION_AFTER_SECONDS = '(?:[.,](\\d+))?';
const fracSetter: Setter = (p, t) => {
  p.frac = t ?? '';
  return true;
};

interface Chunk {
  /** Length of the layout text consumed. */
  length: number;
  pattern: string;
  setter: Setter | null;
  isSeconds?: boolean;
  isFraction?: boolean;
}

function startsWith(layout: string, i: number, text: string): boolean {
  return layout.startsWith(text, i);
}

/** Recognizes the layout element at position i, or null for a literal character (Go's nextStdChunk). */
function elementAt(layout: string, i: number): Chunk | null {
  const c = layout[i];
  const ahead = (s: string) => startsWith(layout, i, s);
  switch (c) {
    case 'J':
      if (ahead('January')) return { length: 7, pattern: '([A-Za-z]+)', setter: monthName(LONG_MONTHS) };
      if (ahead('Jan')) return { length: 3, pattern: '([A-Za-z]{3})', setter: monthName(MONTHS) };
      return null;
    case 'M':
      if (ahead('Monday')) return { length: 6, pattern: '[A-Za-z]+', setter: null };
      if (ahead('Mon')) return { length: 3, pattern: '[A-Za-z]{3}', setter: null };
      if (ahead('MST')) return { length: 3, pattern: '([A-Za-z]{3,5}|[+-]\\d{2,4})', setter: zoneName };
      return null;
    case '0':
      if (ahead('002')) return { length: 3, pattern: '\\d{3}', setter: null };
      if (layout[i + 1] >= '1' && layout[i + 1] <= '6') {
        const which = layout[i + 1];
        const field = (
          { '1': 'month', '2': 'day', '3': 'hour', '4': 'minute', '5': 'second', '6': 'year' } as const
        )[which as '1'];
        if (which === '6') return { length: 2, pattern: '(\\d{2})', setter: twoDigitYear };
        return { length: 2, pattern: '(\\d{2})', setter: num(field), isSeconds: which === '5' };
      }
      return null;
    case '1':
      if (ahead('15')) return { length: 2, pattern: '(\\d{1,2})', setter: num('hour') };
      return { length: 1, pattern: '(\\d{1,2})', setter: num('month') };
    case '2':
      if (ahead('2006')) return { length: 4, pattern: '(\\d{4})', setter: num('year') };
      return { length: 1, pattern: '(\\d{1,2})', setter: num('day') };
    case '_':
      if (ahead('_2') && !ahead('_2006')) return { length: 2, pattern: '( ?\\d{1,2})', setter: num('day') };
      if (ahead('__2')) return { length: 3, pattern: '[ \\d]{3}', setter: null };
      return null;
    case '3':
      return { length: 1, pattern: '(\\d{1,2})', setter: num('hour') };
    case '4':
      return { length: 1, pattern: '(\\d{1,2})', setter: num('minute') };
    case '5':
      return { length: 1, pattern: '(\\d{1,2})', setter: num('second'), isSeconds: true };
    case 'P':
      if (ahead('PM')) return { length: 2, pattern: '([AaPp][Mm])', setter: ampm };
      return null;
    case 'p':
      if (ahead('pm')) return { length: 2, pattern: '([AaPp][Mm])', setter: ampm };
      return null;
    case '-':
    case 'Z': {
      const z = c === 'Z' ? 'Z|z|' : '';
      const rest = layout.slice(i + 1);
      if (rest.startsWith('07:00:00'))
        return { length: 9, pattern: `(${z}[+-]\\d{2}:\\d{2}:\\d{2})`, setter: offsetSetter };
      if (rest.startsWith('070000')) return { length: 7, pattern: `(${z}[+-]\\d{6})`, setter: offsetSetter };
      if (rest.startsWith('07:00'))
        return { length: 6, pattern: `(${z}[+-]\\d{2}:\\d{2})`, setter: offsetSetter };
      if (rest.startsWith('0700')) return { length: 5, pattern: `(${z}[+-]\\d{4})`, setter: offsetSetter };
      if (rest.startsWith('07')) return { length: 3, pattern: `(${z}[+-]\\d{2})`, setter: offsetSetter };
      return null;
    }
    case '.':
    case ',': {
      const d = layout[i + 1];
      if (d !== '0' && d !== '9') return null;
      let j = i + 1;
      while (layout[j] === d) j++;
      if (j < layout.length && layout[j] >= '0' && layout[j] <= '9') return null;
      const n = j - i - 1;
      // `.000` requires exactly n digits; `.999` makes the fraction optional (Go semantics).
      const pattern = d === '0' ? `[.,](\\d{${n}})` : '(?:[.,](\\d+))?';
      return { length: j - i, pattern, setter: fracSetter, isFraction: true };
    }
    default:
      return null;
  }
}

function monthName(names: string[]): Setter {
  return (p, t) => {
    const idx = names.indexOf(t.toLowerCase());
    if (idx < 0) return false;
    p.month = idx + 1;
    return true;
  };
}

const twoDigitYear: Setter = (p, t) => {
  const y = Number(t);
  p.year = y >= 69 ? 1900 + y : 2000 + y; // Go's pivot
  return true;
};

const ampm: Setter = (p, t) => {
  p.pm = t.toLowerCase() === 'pm';
  return true;
};

const zoneName: Setter = (p, t) => {
  if (t[0] === '+' || t[0] === '-') return offsetSetter(p, t);
  p.offsetMinutes = ZONE_ABBREVIATIONS[t.toUpperCase()] ?? 0;
  return true;
};

const cache = new Map<string, CompiledLayout>();
const CACHE_MAX = 256;

/** Compiles a Go layout (or one of `NAMED_GO_LAYOUTS` by name). */
export function compileGoLayout(layoutOrName: string): CompiledLayout {
  const cached = cache.get(layoutOrName);
  if (cached) return cached;
  const layout = NAMED_GO_LAYOUTS[layoutOrName] ?? layoutOrName;
  let pattern = '^';
  const setters: Setter[] = [];
  for (let i = 0; i < layout.length;) {
    const chunk = elementAt(layout, i);
    if (!chunk) {
      pattern += layout[i].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      i++;
      continue;
    }
    pattern += chunk.pattern;
    if (chunk.setter) setters.push(chunk.setter);
    i += chunk.length;
    if (chunk.isSeconds) {
      const next = elementAt(layout, i);
      if (!next?.isFraction) {
        pattern += FRACTION_AFTER_SECONDS;
        setters.push(fracSetter);
      }
    }
  }
  const compiled = { regex: new RegExp(pattern + '$'), setters };
  if (cache.size >= CACHE_MAX) cache.clear();
  cache.set(layoutOrName, compiled);
  return compiled;
}

/** Parses `text` with a Go layout. Returns epoch ms (µs precision) or null when it does not match. */
export function parseWithGoLayout(text: string, layoutOrName: string): number | null {
  const { regex, setters } = compileGoLayout(layoutOrName);
  const m = regex.exec(text.trim());
  if (!m) return null;
  const p: Parts = {
    year: 0,
    month: 1,
    day: 1,
    hour: 0,
    minute: 0,
    second: 0,
    frac: '',
    pm: null,
    offsetMinutes: 0,
  };
  for (let g = 0; g < setters.length; g++) {
    const value = m[g + 1];
    if (value === undefined) continue;
    if (!setters[g](p, value)) return null;
  }
  if (p.pm !== null) {
    if (p.hour < 1 || p.hour > 12) return null;
    if (p.pm && p.hour < 12) p.hour += 12;
    if (!p.pm && p.hour === 12) p.hour = 0;
  }
  if (p.month < 1 || p.month > 12 || p.day < 1 || p.day > daysIn(p.year, p.month)) return null;
  if (p.hour > 23 || p.minute > 59 || p.second > 59) return null;
  let ms = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  if (p.year < 100) {
    const d = new Date(ms);
    d.setUTCFullYear(p.year);
    ms = d.getTime();
  }
  if (p.frac) ms += Math.round(Number((p.frac + '000000000').slice(0, 9)) / 1000) / 1000;
  ms -= p.offsetMinutes * MS_PER_MINUTE;
  return Number.isFinite(ms) ? roundMicros(ms) : null;
}

function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}
