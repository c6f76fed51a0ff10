/**
 * More RARE scalar functions (apl.md §9): hash, range, array_iff / array_extract / array_select_dict, cot,
 * format_url, IPv4 masks and text search, IPv6, iscc / isimei, base64 of byte arrays, pairs.
 */
import { QuarryError } from '@quarry/common';
import type { ColumnKind } from '@quarry/contracts';
import { formatTimespan } from '../columns';
import { formatIpv4, ipv4HasPrefix, ipv4sIn, ipv4WithMask, isIpv4Prefix, parseIpv4 } from './hash-ip';
import { compareIp6, ip6InRange, parseIp6 } from './ip6';
import { isNullish, num, str, toDynamic, type ScalarImpl } from './scalar-impl';
import { strictBase64Bytes } from './strings';

/** `range` stops after this many values (2^20, Kusto's range page: the array is truncated). */
const MAX_RANGE = 1_048_576;
const HOUR_MS = 3_600_000;

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK64 = (1n << 64n) - 1n;

/**
 * `hash(x [, salt])`: deterministic signed integer. Axiom leaves the algorithm open; Quarry uses 64-bit
 * FNV-1a over the UTF-8 text (the salt's text first, then a zero byte), keeping the top 53 bits as a
 * signed value so it is exact in Quarry's integers.
 */
export function hashValue(text: string, salt: string | null): number {
  let h = FNV_OFFSET;
  const feed = (bytes: Uint8Array) => {
    for (const b of bytes) h = ((h ^ BigInt(b)) * FNV_PRIME) & MASK64;
  };
  if (salt !== null) {
    feed(Buffer.from(salt, 'utf8'));
    feed(new Uint8Array([0]));
  }
  feed(Buffer.from(text, 'utf8'));
  return Number(BigInt.asIntN(53, h >> 11n));
}

/**
 * `range(start, stop [, step])`: inclusive arithmetic sequence (numbers, datetimes, timespans); the step
 * defaults to 1 for numbers and 1h for datetimes and timespans, and a longer sequence is cut at MAX_RANGE.
 */
function range(args: unknown[], kinds: ColumnKind[]): unknown {
  const [start, stop] = [args[0], args[1]];
  if (typeof start !== 'number' || typeof stop !== 'number') return null;
  const isTime = kinds[0] === 'datetime' || kinds[0] === 'timespan';
  const step = args.length > 2 ? args[2] : isTime ? HOUR_MS : 1;
  if (typeof step !== 'number' || step === 0 || !Number.isFinite(step)) return null;
  const count = Math.min(MAX_RANGE, Math.floor((stop - start) / step + 1e-9) + 1);
  if (count <= 0) return [];
  const out = new Array<unknown>(count);
  for (let i = 0; i < count; i++) {
    const v = start + i * step;
    out[i] = kinds[0] === 'timespan' ? formatTimespan(v) : toDynamic(v, kinds[0]);
  }
  return out;
}

/** `array_iff(conds, a, b)`: per element, a[i] when conds[i] is true, b[i] when false, null otherwise. */
function arrayIff([conds, a, b]: unknown[]): unknown {
  if (!Array.isArray(conds)) return null;
  const pick = (x: unknown, i: number) => (Array.isArray(x) ? (x[i] ?? null) : (x ?? null));
  // Kusto: a numeric condition is true when not 0; any other non-boolean condition gives null.
  const truth = (c: unknown) => (typeof c === 'boolean' ? c : typeof c === 'number' ? c !== 0 : null);
  return conds.map((c, i) => {
    const t = truth(c);
    return t === null ? null : t ? pick(a, i) : pick(b, i);
  });
}

type PathStep = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'all' };

/** A JSONPath subset: `$`, `.key`, `['key']`, `[n]` (negative from the end), `[*]`, `.*`. */
export function parseJsonPath(path: string): PathStep[] | null {
  if (!path.startsWith('$')) return null;
  const steps: PathStep[] = [];
  let i = 1;
  while (i < path.length) {
    if (path[i] === '.') {
      if (path[i + 1] === '*') {
        steps.push({ kind: 'all' });
        i += 2;
        continue;
      }
      const m = /^[A-Za-z_$@][\w$@-]*/.exec(path.slice(i + 1));
      if (!m) return null;
      steps.push({ kind: 'key', key: m[0] });
      i += 1 + m[0].length;
    } else if (path[i] === '[') {
      const close = path.indexOf(']', i);
      if (close < 0) return null;
      const inner = path.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ kind: 'all' });
      else if (/^-?\d+$/.test(inner)) steps.push({ kind: 'index', index: Number(inner) });
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'key', key: inner.slice(1, -1) });
      else return null;
    } else return null;
  }
  return steps;
}

function applyPath(values: unknown[], steps: PathStep[]): unknown[] {
  let cur = values;
  for (const s of steps) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (s.kind === 'all') {
        if (Array.isArray(v)) next.push(...v);
        else if (v !== null && typeof v === 'object') next.push(...Object.values(v));
      } else if (s.kind === 'index') {
        if (Array.isArray(v)) {
          const x = v[s.index < 0 ? v.length + s.index : s.index];
          if (x !== undefined) next.push(x);
        }
      } else if (v !== null && typeof v === 'object' && !Array.isArray(v) && s.key in v) {
        next.push((v as Record<string, unknown>)[s.key]);
      }
    }
    cur = next;
  }
  return cur;
}

/** `array_extract(a, path)`: every value the JSONPath selects in the array, as an array. */
function arrayExtract([a, path]: unknown[]): unknown {
  if (!Array.isArray(a) || typeof path !== 'string') return null;
  const steps = parseJsonPath(path);
  if (steps === null) {
    throw new QuarryError('invalid', `invalid JSON path '${path}' for array_extract`, {
      code: 'apl_invalid_argument',
      details: { name: 'array_extract', reason: `invalid JSON path '${path}'` },
    });
  }
  return applyPath([a], steps);
}

function sameValue(x: unknown, y: unknown): boolean {
  if (typeof x === 'object' || typeof y === 'object') return JSON.stringify(x) === JSON.stringify(y);
  return x === y;
}

/** `format_url(bag)`: the inverse of `parse_url` (keys scheme, host, port, path, username, password, query, fragment). */
function formatUrl([bag]: unknown[]): unknown {
  if (bag === null || typeof bag !== 'object' || Array.isArray(bag)) return null;
  const b = bag as Record<string, unknown>;
  const text = (k: string) => (b[k] === undefined || b[k] === null ? '' : String(b[k]));
  const host = text('host');
  if (host === '') return null;
  let out = text('scheme') ? `${text('scheme')}://` : '//';
  if (text('username')) {
    out += encodeURIComponent(text('username'));
    if (text('password')) out += ':' + encodeURIComponent(text('password'));
    out += '@';
  }
  out += host;
  if (text('port')) out += ':' + text('port');
  const path = text('path');
  if (path) out += path.startsWith('/') ? path : '/' + path;
  const query = b.query;
  if (query !== null && typeof query === 'object' && !Array.isArray(query)) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) params.append(k, String(v));
    const q = params.toString();
    if (q) out += '?' + q;
  } else if (typeof query === 'string' && query) {
    out += query.startsWith('?') ? query : '?' + query;
  }
  if (text('fragment')) out += '#' + text('fragment');
  return out;
}

/** List arguments: several values and/or dynamic arrays, flattened, as strings. */
function listOf(args: unknown[]): string[] {
  return args
    .flatMap((a) => (Array.isArray(a) ? a : [a]))
    .filter((x) => x !== null && x !== undefined)
    .map(String);
}

/** Luhn checksum over a digit string. */
function luhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function wildcardRegExp(pattern: string): RegExp {
  const body = pattern
    .split('*')
    .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

function pairOf(key: string, value: string, separator: string) {
  return { key, value, separator };
}

function parsePair(s: string, sep: string): { key: string; value: string; separator: string } | null {
  const i = s.indexOf(sep);
  return i < 0 ? null : pairOf(s.slice(0, i), s.slice(i + sep.length), sep);
}

const DEFAULT_PAIR_SEPARATOR = ':';

export const MORE_RARE_FUNCTIONS: Record<string, ScalarImpl> = {
  hash: ([v, salt], kinds) => {
    const s = str(v, kinds[0]);
    if (s === null) return null;
    return hashValue(s, salt === undefined || salt === null ? null : String(salt));
  },
  range,
  cot: ([v], [k]) => {
    const x = num(v, k);
    if (x === null) return null;
    const t = Math.tan(x);
    return t === 0 ? null : 1 / t;
  },
  array_iff: arrayIff,
  array_extract: arrayExtract,
  array_select_dict: ([a, key, value]) => {
    if (!Array.isArray(a) || typeof key !== 'string') return null;
    for (const d of a) {
      if (d === null || typeof d !== 'object' || Array.isArray(d)) continue;
      const rec = d as Record<string, unknown>;
      if (key in rec && sameValue(rec[key], value)) return d;
    }
    return null;
  },
  format_url: formatUrl,
  parse_ipv4_mask: ([ip, prefix], kinds) => ipv4WithMask(ip, kinds[0], prefix)?.ip ?? null,
  format_ipv4_mask: ([ip, prefix], kinds) => {
    // Kusto: an address that cannot be read, or a prefix outside 0–32, formats as "".
    const m = ipv4WithMask(ip, kinds[0], prefix);
    if (m === undefined) return null;
    return m === null ? '' : `${formatIpv4(m.ip)}/${m.bits}`;
  },
  has_any_ipv4: (args, kinds) => {
    const text = str(args[0], kinds[0]);
    if (text === null) return null;
    // Only valid addresses are looked for (Kusto: "127.0.0.256" is never found).
    const wanted = new Set(listOf(args.slice(1)).filter((ip) => parseIpv4(ip) !== null));
    return ipv4sIn(text).some((ip) => wanted.has(ip));
  },
  has_any_ipv4_prefix: (args, kinds) => {
    const text = str(args[0], kinds[0]);
    if (text === null) return null;
    const prefixes = listOf(args.slice(1)).filter(isIpv4Prefix);
    return ipv4sIn(text).some((ip) => prefixes.some((p) => ipv4HasPrefix(ip, p)));
  },
  ipv6_compare: ([a, b, prefix], kinds) => {
    const x = parseIp6(str(a, kinds[0]));
    const y = parseIp6(str(b, kinds[1]));
    if (x === null || y === null) return null;
    if (prefix !== undefined && (typeof prefix !== 'number' || prefix < 0 || prefix > 128)) return null;
    return compareIp6(x, y, typeof prefix === 'number' ? prefix : 128);
  },
  ipv6_is_match: (args, kinds) => {
    const r = MORE_RARE_FUNCTIONS.ipv6_compare(args, kinds);
    return r === null ? null : r === 0;
  },
  ipv6_is_in_range: ([ip, r], kinds) => {
    const x = parseIp6(str(ip, kinds[0]));
    const range = parseIp6(str(r, kinds[1]));
    return x === null || range === null ? null : ip6InRange(x, range);
  },
  ipv6_is_in_any_range: (args, kinds) => {
    const x = parseIp6(str(args[0], kinds[0]));
    if (x === null) return null;
    // As `ipv4_is_in_any_range` (Kusto's null rule): a range containing the address wins (true);
    // otherwise a range that cannot be read gives null.
    let unreadable = false;
    for (const r of listOf(args.slice(1))) {
      const range = parseIp6(r);
      if (range === null) unreadable = true;
      else if (ip6InRange(x, range)) return true;
    }
    return unreadable ? null : false;
  },
  iscc: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    const digits = s.replace(/[ -]/g, '');
    return /^\d{12,19}$/.test(digits) && /^[\d -]+$/.test(s) && luhn(digits);
  },
  isimei: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    const digits = s.replace(/[ -]/g, '');
    return /^\d{15}$/.test(digits) && /^[\d -]+$/.test(s) && luhn(digits);
  },
  base64_encode_fromarray: ([a]) => {
    if (!Array.isArray(a)) return null;
    if (!a.every((b) => typeof b === 'number' && Number.isInteger(b) && b >= 0 && b <= 255)) return null;
    return Buffer.from(a as number[]).toString('base64');
  },
  base64_decode_toarray: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    const bytes = strictBase64Bytes(s);
    return bytes === null ? null : [...bytes];
  },
  pair: ([key, value, sep], kinds) => {
    if (isNullish(key)) return null;
    return pairOf(
      str(key, kinds[0]) ?? '',
      str(value, kinds[1]) ?? '',
      sep === undefined || sep === null ? DEFAULT_PAIR_SEPARATOR : String(sep),
    );
  },
  parse_pair: ([v, sep], kinds) => {
    const s = str(v, kinds[0]);
    if (s === null) return null;
    return parsePair(s, sep === undefined || sep === null ? DEFAULT_PAIR_SEPARATOR : String(sep));
  },
  find_pair: ([a, keyPattern, valuePattern, sep]) => {
    if (!Array.isArray(a) || typeof keyPattern !== 'string' || typeof valuePattern !== 'string') return null;
    const separator = sep === undefined || sep === null ? DEFAULT_PAIR_SEPARATOR : String(sep);
    const keyRe = wildcardRegExp(keyPattern);
    const valueRe = wildcardRegExp(valuePattern);
    for (const item of a) {
      if (typeof item !== 'string') continue;
      const p = parsePair(item, separator);
      if (p && keyRe.test(p.key) && valueRe.test(p.value)) return p;
    }
    return null;
  },
};
