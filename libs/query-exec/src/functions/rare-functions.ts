/** Less common string, parsing, array and IP functions (apl.md §9, RARE tier). */
import { compileRegex } from '../regex';
import { parseIpv4 } from './hash-ip';
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
    else if (c === ',') {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
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
    if (s === null) return null;
    const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(s)?.[1] ?? '';
    const sep = s.includes('\\') && !s.includes('/') ? '\\' : '/';
    const idx = s.lastIndexOf(sep);
    const filename = idx >= 0 ? s.slice(idx + 1) : s;
    const dir = idx >= 0 ? s.slice(0, idx) : '';
    const dot = filename.lastIndexOf('.');
    return {
      Scheme: scheme,
      RootPath: '',
      DirectoryPath: dir,
      DirectoryName: dir.slice(dir.lastIndexOf(sep) + 1),
      Filename: filename,
      Extension: dot > 0 ? filename.slice(dot + 1) : '',
      AlternateDataStreamName: '',
    };
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
  indexof_regex: ([v, re, start], kinds) => {
    const s = str(v, kinds[0]);
    const p = str(re, kinds[1]);
    if (s === null || p === null) return null;
    const from = typeof start === 'number' ? Math.max(0, Math.trunc(start)) : 0;
    const m = compileRegex(p).exec(s.slice(from));
    return m ? m.index + from : -1;
  },
  strip_ansi_escapes: ([v], [k]) => str(v, k)?.replace(/\u001b\[[0-9;?]*[ -/]*[@-~]/g, '') ?? null,
  unicode_codepoints_from_string: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : [...s].map((c) => c.codePointAt(0));
  },
  unicode_codepoints_to_string: ([v]) =>
    Array.isArray(v) ? String.fromCodePoint(...v.filter((x): x is number => typeof x === 'number')) : null,
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
    let i =
      typeof unit === 'string' && unit
        ? Math.max(0, BYTE_UNITS.indexOf(unit.toUpperCase().replace(/B$/, '')))
        : 0;
    if (!(typeof unit === 'string' && unit))
      while (i < BYTE_UNITS.length - 1 && Math.abs(n) >= Math.pow(b, i + 1)) i++;
    const p = typeof precision === 'number' ? precision : 0;
    const value = n / Math.pow(b, i);
    return `${Number(value.toFixed(p))} ${BYTE_UNITS[i]}B`;
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
    if (!Array.isArray(keys) || !Array.isArray(values)) return null;
    const out: Record<string, unknown> = {};
    keys.forEach((k, i) => {
      if (typeof k === 'string') out[k] = values[i] ?? null;
    });
    return out;
  },
  ipv4_compare: ([a, b, prefix], kinds) => {
    const x = parseIpv4(str(a, kinds[0]));
    const y = parseIpv4(str(b, kinds[1]));
    if (x === null || y === null) return null;
    const bits = typeof prefix === 'number' ? prefix : 32;
    const size = 2 ** (32 - bits);
    const px = Math.floor(x / size);
    const py = Math.floor(y / size);
    return px < py ? -1 : px > py ? 1 : 0;
  },
  ipv4_is_match: (args, kinds) => {
    const r = RARE_FUNCTIONS.ipv4_compare(args, kinds);
    return r === null ? null : r === 0;
  },
  ipv4_netmask_suffix: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    const [ip, bits] = s.split('/');
    if (parseIpv4(ip) === null) return null;
    const n = bits === undefined ? 32 : Number(bits);
    return Number.isInteger(n) && n >= 0 && n <= 32 ? n : null;
  },
  has_ipv4: ([text, ip], kinds) => {
    const s = str(text, kinds[0]);
    const target = str(ip, kinds[1]);
    if (s === null || target === null) return null;
    return (s.match(/\d{1,3}(?:\.\d{1,3}){3}/g) ?? []).some((m) => m === target);
  },
  has_ipv4_prefix: ([text, prefix], kinds) => {
    const s = str(text, kinds[0]);
    const p = str(prefix, kinds[1]);
    if (s === null || p === null) return null;
    return (s.match(/\d{1,3}(?:\.\d{1,3}){3}/g) ?? []).some((m) => m.startsWith(p));
  },
};
