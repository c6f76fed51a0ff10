import type { ColumnKind } from '@quarry/contracts';
import { markJsonLongArrays } from '@quarry/common';
import { datetimeOf, isNullish, num, str, type ScalarImpl } from './scalar-impl';

/** A long is 16 hex digits: tohex's longest padding. */
const MAX_HEX_DIGITS = 16;

function toLong(v: unknown, k: ColumnKind): number | null {
  const n = num(v, k);
  if (n === null || !Number.isFinite(n)) return null;
  return Math.trunc(n);
}

/** Go-style duration text (`90s`, `1.5h`, `2h45m`, `300ms`) to milliseconds. */
export function parseDuration(text: string): number | null {
  const t = text.trim();
  const re = /(-?\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/gy;
  let total = 0;
  let matched = 0;
  let m: RegExpExecArray | null;
  const units: Record<string, number> = {
    ns: 1e-6,
    us: 1e-3,
    µs: 1e-3,
    ms: 1,
    s: 1000,
    m: 60_000,
    h: 3_600_000,
    d: 86_400_000,
  };
  while ((m = re.exec(t)) !== null) {
    total += Number(m[1]) * units[m[2]];
    matched = re.lastIndex;
  }
  if (matched !== t.length || matched === 0) {
    const kusto = /^(-)?(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})(?:\.(\d+))?$/.exec(t);
    if (!kusto) return null;
    const sign = kusto[1] ? -1 : 1;
    const ms =
      (+(kusto[2] ?? 0) * 86400 + +kusto[3] * 3600 + +kusto[4] * 60 + +kusto[5]) * 1000 +
      (kusto[6] ? Number('0.' + kusto[6]) * 1000 : 0);
    return sign * ms;
  }
  return total;
}

export const CONVERSION_FUNCTIONS: Record<string, ScalarImpl> = {
  tostring: ([v], [k]) => (isNullish(v) ? '' : str(v, k)),
  toint: ([v], [k]) => toLong(v, k),
  tolong: ([v], [k]) => toLong(v, k),
  toreal: ([v], [k]) => num(v, k),
  todouble: ([v], [k]) => num(v, k),
  todecimal: ([v], [k]) => num(v, k),
  todatetime: ([v], [k]) => datetimeOf(v, k),
  totimespan: ([v], [k]) => {
    if (isNullish(v)) return null;
    if (k === 'timespan') return v;
    if (typeof v === 'string') return parseDuration(v);
    if (typeof v === 'number') return v / 1e6; // Axiom: numbers are nanoseconds
    return null;
  },
  totime: (a, k) => CONVERSION_FUNCTIONS.totimespan(a, k),
  tobool: ([v]) => {
    if (typeof v === 'boolean') return v;
    if (typeof v === 'number') return v !== 0;
    if (typeof v === 'string') {
      const t = v.trim().toLowerCase();
      if (t === 'true') return true;
      if (t === 'false') return false;
      return false;
    }
    return isNullish(v) ? null : false;
  },
  toboolean: (a, k) => CONVERSION_FUNCTIONS.tobool(a, k),
  todynamic: ([v], [k]) => parseJsonValue(v, k, null),
  parse_json: ([v], [k]) => parseJsonValue(v, k, 'keep'),
  toarray: ([v]) => (Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : []),
  gettype: ([v], [k]) => {
    if (isNullish(v)) return 'null';
    if (k !== 'dynamic') return k === 'long' ? 'long' : k;
    if (Array.isArray(v)) return 'array';
    if (typeof v === 'object') return 'dictionary';
    // Kusto's gettype page says `int` for `parse_json('1')`; in Axiom int is long, and an ingested
    // integer field (a dynamic value when its kind is mixed) must stay `long` (docs/apl.md).
    if (typeof v === 'number') return Number.isInteger(v) ? 'long' : 'real';
    if (typeof v === 'boolean') return 'bool';
    return 'string';
  },
  tohex: ([v, w], [k]) => {
    const n = num(v, k);
    if (n === null) return null;
    const hex = (n < 0 ? BigInt.asUintN(64, BigInt(Math.trunc(n))) : BigInt(Math.trunc(n))).toString(16);
    // Kusto's tohex page: a minimum length above 16 is taken as 16.
    return typeof w === 'number' ? hex.padStart(Math.min(Math.trunc(w), MAX_HEX_DIGITS), '0') : hex;
  },
  isfinite: ([v]) => (typeof v === 'number' ? Number.isFinite(v) : null),
  isinf: ([v]) => (typeof v === 'number' ? v === Infinity || v === -Infinity : null),
  isnan: ([v]) => (typeof v === 'number' ? Number.isNaN(v) : null),
  isstring: ([v]) => typeof v === 'string',
  isbool: ([v]) => typeof v === 'boolean',
  isreal: ([v], [k]) => typeof v === 'number' && (k === 'real' || !Number.isInteger(v)),
  isint: ([v], [k]) => typeof v === 'number' && k !== 'real' && Number.isInteger(v),
  isarray: ([v]) => Array.isArray(v),
  isascii: ([v], [k]) =>
    isNullish(v) ? null : /^[\x00-\x7f]*$/.test(String(k === 'string' ? v : JSON.stringify(v))),
  isutf8: ([v]) => (isNullish(v) ? null : true),
  ismap: ([v]) => v !== null && typeof v === 'object' && !Array.isArray(v),
};

function parseJsonValue(v: unknown, k: ColumnKind, onError: 'keep' | null): unknown {
  if (isNullish(v)) return null;
  if (typeof v !== 'string') return v;
  void k;
  // Kusto's isnull/isempty/gettype pages: parse_json("") is null (other invalid JSON keeps its text).
  if (v === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(v);
  } catch {
    return onError === 'keep' ? v : null;
  }
  markJsonLongArrays(v, value);
  return value;
}
