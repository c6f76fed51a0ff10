/** Less common string, parsing, array and IP functions (apl.md §9, RARE tier). */
import { compileRegex } from '../regex';
import {
  ipv4HasPrefix,
  ipv4sIn,
  isIpv4Prefix,
  maskIpv4,
  parseIpv4,
  parseIpv4Prefixed,
  prefixArgument,
} from './hash-ip';
import { isNullish, num, str, type ScalarImpl } from './scalar-impl';

const BYTE_UNITS = ['', 'K', 'M', 'G', 'T', 'P', 'E'];

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

function trimRegex(pattern: string, s: string, start: boolean, end: boolean): string {
  let out = s;
  if (start) {
    const m = compileRegex('^(?:' + pattern + ')').exec(out);
    if (m) out = out.slice(m[0].length);
  }
  if (end) {
    const m = compileRegex('(?:' + pattern + ')$').exec(out);
    if (m) out = out.slice(0, out.length - m[0].length);
  }
  return out;
}

function parseCsvRecord(s: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (quoted) {
      if (c === '"' && s[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === '\n' || c === '\r')
      break; // Kusto: only the first record is taken
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * `parse_path` (Kusto): Scheme (`file://`), RootPath (a drive `C:`), DirectoryPath, DirectoryName,
 * Filename, Extension and AlternateDataStreamName (`file.txt:some.exe`); both slashes separate.
 */
function parsePath(path: string): Record<string, string> {
  let rest = path;
  let scheme = '';
  const sm = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(rest);
  if (sm) {
    scheme = sm[1];
    rest = rest.slice(sm[0].length);
  }
  if (rest.startsWith('\\\\?\\')) rest = rest.slice(4); // long path prefix \\?\
  const root = /^[A-Za-z]:/.exec(rest)?.[0] ?? '';
  const idx = Math.max(rest.lastIndexOf('/'), rest.lastIndexOf('\\'));
  let filename = idx >= 0 ? rest.slice(idx + 1) : rest;
  const dir = idx >= 0 ? rest.slice(0, idx) : '';
  let stream = '';
  const colon = filename.indexOf(':');
  if (colon >= 0 && !(idx < 0 && colon === 1)) {
    stream = filename.slice(colon + 1);
    filename = filename.slice(0, colon);
  }
  const dot = filename.lastIndexOf('.');
  const dirName = dir.slice(Math.max(dir.lastIndexOf('/'), dir.lastIndexOf('\\')) + 1);
  return {
    Scheme: scheme,
    RootPath: root,
    DirectoryPath: dir,
    DirectoryName: dirName,
    Filename: filename,
    Extension: dot > 0 ? filename.slice(dot + 1) : '',
    AlternateDataStreamName: stream,
  };
}

function rotate(a: unknown, n: unknown, dir: 1 | -1): unknown {
  if (!Array.isArray(a) || typeof n !== 'number' || a.length === 0) return Array.isArray(a) ? a : null;
  const k = (((dir * Math.trunc(n)) % a.length) + a.length) % a.length;
  return [...a.slice(k), ...a.slice(0, k)];
}

function shift(a: unknown, n: unknown, fill: unknown, left: boolean): unknown {
  if (!Array.isArray(a) || typeof n !== 'number') return null;
  const k = Math.min(a.length, Math.abs(Math.trunc(n)));
  const pad = new Array(k).fill(fill === undefined ? null : fill);
  const toLeft = n >= 0 === left;
  return toLeft ? [...a.slice(k), ...pad] : [...pad, ...a.slice(0, a.length - k)];
}

/** An optional whole-number argument: its value, the default when absent or null, NaN when not a number. */
function optionalInt(v: unknown, fallback: number): number {
  if (v === undefined || v === null) return fallback;
  return typeof v === 'number' ? Math.trunc(v) : NaN;
}

/**
 * `indexof_regex(s, re [, start [, occurrence [, length]]])` in Axiom's argument order (Kusto's page has
 * `length` before `occurrence`): the position of the occurrence-th non-overlapping match that lies in
 * the `length` characters from `start` (-1 is to the end); -1 when there is none; null for a negative
 * `start`, an `occurrence` below 1 or a `length` below -1, as both pages say.
 */
function indexOfRegex(
  s: string,
  pattern: string,
  startArg: unknown,
  occArg: unknown,
  lenArg: unknown,
): number | null {
  const start = optionalInt(startArg, 0);
  const occurrence = optionalInt(occArg, 1);
  const length = optionalInt(lenArg, -1);
  if (!(start >= 0) || !(occurrence >= 1) || !(length >= -1)) return null;
  if (start > s.length) return -1;
  const window = length === -1 ? s.slice(start) : s.slice(start, start + length);
  const r = compileRegex(pattern, 'g');
  // The compiled regex is shared (cached): start from the window's beginning, whatever an earlier call left.
  r.lastIndex = 0;
  let seen = 0;
  let m: RegExpExecArray | null;
  while ((m = r.exec(window)) !== null) {
    seen++;
    if (seen === occurrence) return start + m.index;
    if (m[0] === '') r.lastIndex++;
  }
  return -1;
}

export const RARE_FUNCTIONS: Record<string, ScalarImpl> = {
  dynamic_to_json: ([v], [k]) =>
    isNullish(v) ? null : k === 'dynamic' ? JSON.stringify(sortKeys(v)) : JSON.stringify(v),
  parse_urlquery: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    const out: Record<string, string> = {};
    new URLSearchParams(s.startsWith('?') ? s.slice(1) : s).forEach((val, key) => (out[key] = val));
    return out;
  },
  parse_csv: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : parseCsvRecord(s);
  },
  parse_path: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : parsePath(s);
  },
  translate: ([from, to, v], kinds) => {
    const s = str(v, kinds[2]);
    const f = str(from, kinds[0]);
    const t = str(to, kinds[1]) ?? '';
    if (s === null || f === null) return null;
    const fromChars = [...f];
    const toChars = [...t];
    return [...s]
      .map((c) => {
        const i = fromChars.indexOf(c);
        if (i < 0) return c;
        if (toChars.length === 0) return '';
        return toChars[Math.min(i, toChars.length - 1)];
      })
      .join('');
  },
  trim_regex: ([re, v], kinds) => {
    const s = str(v, kinds[1]);
    const p = str(re, kinds[0]);
    return s === null || p === null ? null : trimRegex(p, s, true, true);
  },
  trim_start_regex: ([re, v], kinds) => {
    const s = str(v, kinds[1]);
    const p = str(re, kinds[0]);
    return s === null || p === null ? null : trimRegex(p, s, true, false);
  },
  trim_end_regex: ([re, v], kinds) => {
    const s = str(v, kinds[1]);
    const p = str(re, kinds[0]);
    return s === null || p === null ? null : trimRegex(p, s, false, true);
  },
  countof_regex: ([re, v], kinds) => {
    const s = str(v, kinds[1]);
    const p = str(re, kinds[0]);
    if (s === null || p === null) return null;
    const r = compileRegex(p, 'g');
    let n = 0;
    let m: RegExpExecArray | null;
    while ((m = r.exec(s)) !== null) {
      n++;
      if (m[0] === '') r.lastIndex++;
    }
    return n;
  },
  indexof_regex: ([v, re, start, occurrence, length], kinds) => {
    const s = str(v, kinds[0]);
    const p = str(re, kinds[1]);
    if (s === null || p === null) return null;
    return indexOfRegex(s, p, start, occurrence, length);
  },
  strip_ansi_escapes: ([v], [k]) => str(v, k)?.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '') ?? null,
  unicode_codepoints_from_string: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : [...s].map((c) => c.codePointAt(0));
  },
  unicode_codepoints_to_string: (args) => {
    // Kusto: any number of code points and/or arrays of them; an invalid code point gives null.
    const points = args.flatMap((a) => (Array.isArray(a) ? a : [a]));
    if (!points.every((p) => typeof p === 'number' && Number.isInteger(p) && p >= 0 && p <= 0x10ffff))
      return null;
    return String.fromCodePoint(...(points as number[]));
  },
  parse_bytes: ([v, base], kinds) => {
    const s = str(v, kinds[0]);
    if (s === null) return null;
    const m = /^\s*(-?\d+(?:\.\d+)?)\s*([kmgtpe]?)(i?)b?\s*$/i.exec(s);
    if (!m) return 0;
    const b = base === 10 ? 1000 : 1024;
    return Math.round(Number(m[1]) * Math.pow(b, BYTE_UNITS.indexOf(m[2].toUpperCase())));
  },
  format_bytes: ([v, precision, unit, base], kinds) => {
    const n = num(v, kinds[0]);
    if (n === null) return null;
    const b = base === 10 ? 1000 : 1024;
    // Units: `Bytes`, `KB`…`EB` (Kusto; also `KiB`… and `B`); auto-selected when absent or empty.
    const u = typeof unit === 'string' ? unit.trim().toUpperCase() : '';
    let i = u === '' ? -1 : u === 'BYTES' || u === 'B' ? 0 : BYTE_UNITS.indexOf(u.replace(/I?B$/, ''));
    if (i < 0) {
      i = 0;
      while (i < BYTE_UNITS.length - 1 && Math.abs(n) >= Math.pow(b, i + 1)) i++;
    }
    // toFixed takes 0–100 digits (beyond ~17 they change nothing): a larger precision is 100, not a 500.
    const p = typeof precision === 'number' ? Math.min(100, Math.max(0, Math.trunc(precision))) : 0;
    const value = n / Math.pow(b, i);
    return `${Number(value.toFixed(p))} ${i === 0 ? 'Bytes' : BYTE_UNITS[i] + 'B'}`;
  },
  array_rotate_left: ([a, n]) => rotate(a, n, 1),
  array_rotate_right: ([a, n]) => rotate(a, n, -1),
  array_shift_left: ([a, n, fill]) => shift(a, n, fill, true),
  array_shift_right: ([a, n, fill]) => shift(a, n, fill, false),
  array_split: ([a, idx]) => {
    if (!Array.isArray(a)) return null;
    const cuts = (Array.isArray(idx) ? idx : [idx])
      .filter((x): x is number => typeof x === 'number')
      .sort((x, y) => x - y);
    const out: unknown[][] = [];
    let prev = 0;
    for (const c of cuts) {
      out.push(a.slice(prev, c));
      prev = c;
    }
    out.push(a.slice(prev));
    return out;
  },
  bag_zip: ([keys, values]) => {
    // Kusto's page: keys not an array → null; values not an array → every (string) key maps to null.
    if (!Array.isArray(keys)) return null;
    const vals = Array.isArray(values) ? values : [];
    const out: Record<string, unknown> = {};
    keys.forEach((k, i) => {
      if (typeof k === 'string') out[k] = vals[i] ?? null;
    });
    return out;
  },
  ipv4_compare: ([a, b, prefix], kinds) => {
    // The combined prefix: the smallest of both texts' IP-prefixes and the argument (Kusto).
    const x = parseIpv4Prefixed(str(a, kinds[0]));
    const y = parseIpv4Prefixed(str(b, kinds[1]));
    const arg = isNullish(prefix) ? undefined : prefixArgument(prefix, 32);
    if (x === null || y === null || arg === null) return null;
    const bits = Math.min(x.bits, y.bits, arg ?? 32);
    const px = maskIpv4(x.ip, bits);
    const py = maskIpv4(y.ip, bits);
    return px < py ? -1 : px > py ? 1 : 0;
  },
  ipv4_is_match: (args, kinds) => {
    const r = RARE_FUNCTIONS.ipv4_compare(args, kinds);
    return r === null ? null : r === 0;
  },
  ipv4_netmask_suffix: ([v], [k]) => parseIpv4Prefixed(str(v, k))?.bits ?? null,
  has_ipv4: ([text, ip], kinds) => {
    const s = str(text, kinds[0]);
    const target = str(ip, kinds[1]);
    if (s === null || target === null) return null;
    if (parseIpv4(target) === null) return false;
    return ipv4sIn(s).some((m) => m === target);
  },
  has_ipv4_prefix: ([text, prefix], kinds) => {
    const s = str(text, kinds[0]);
    const p = str(prefix, kinds[1]);
    if (s === null || p === null) return null;
    if (!isIpv4Prefix(p)) return false;
    return ipv4sIn(s).some((m) => ipv4HasPrefix(m, p));
  },
};
