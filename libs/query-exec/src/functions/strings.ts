import { compileRegex } from '../regex';
import { isNullish, num, str, type ScalarImpl } from './scalar-impl';

function trimChars(s: string, cutset: string, start: boolean, end: boolean): string {
  let a = 0;
  let b = s.length;
  if (start) while (a < b && cutset.includes(s[a])) a++;
  if (end) while (b > a && cutset.includes(s[b - 1])) b--;
  return s.slice(a, b);
}

/** Non-overlapping matches of a regex (an empty match advances one character). */
function countRegex(pattern: string, text: string): number {
  const r = compileRegex(pattern, 'g');
  let n = 0;
  let m: RegExpExecArray | null;
  while ((m = r.exec(text)) !== null) {
    n++;
    if (m[0] === '') r.lastIndex++;
  }
  return n;
}

const UTF8_STRICT = new TextDecoder('utf-8', { fatal: true });

/**
 * The bytes of base64 text, or null unless it is whole base64: Kusto decodes as .NET's
 * Convert.FromBase64String does, so unpadded text (a length that is not a multiple of 4) is invalid
 * (Kusto's base64_encode_fromarray page: `base64_decode_toarray("U3RyaW5n0KHR0tGA0L7Rh9C60LA")` is empty).
 */
export function strictBase64Bytes(text: string): Buffer | null {
  const t = text.replace(/\s+/g, '');
  if (t.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(t)) return null;
  return Buffer.from(t, 'base64');
}

export const STRING_FUNCTIONS: Record<string, ScalarImpl> = {
  tolower: ([v], [k]) => str(v, k)?.toLowerCase() ?? null,
  toupper: ([v], [k]) => str(v, k)?.toUpperCase() ?? null,
  totitle: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : s.charAt(0).toUpperCase() + s.slice(1);
  },
  strcat: (args, kinds) => args.map((a, i) => str(a, kinds[i]) ?? '').join(''),
  strcat_delim: (args, kinds) => {
    const d = str(args[0], kinds[0]) ?? '';
    return args
      .slice(1)
      .map((a, i) => str(a, kinds[i + 1]) ?? '')
      .join(d);
  },
  strlen: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : [...s].length;
  },
  string_size: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : Buffer.byteLength(s, 'utf8');
  },
  substring: ([v, start, len], [k]) => {
    const s = str(v, k);
    if (s === null || typeof start !== 'number') return null;
    const chars = [...s];
    // Kusto: a negative start counts from the end (substring("123456", -2, 2) is "56").
    const at = Math.trunc(start);
    let from = at < 0 ? Math.max(0, chars.length + at) : at;
    if (from > chars.length) from = chars.length;
    const to =
      typeof len === 'number' ? Math.min(chars.length, from + Math.max(0, Math.trunc(len))) : chars.length;
    return chars.slice(from, to).join('');
  },
  split: ([v, d, idx], [k, kd]) => {
    const s = str(v, k);
    const delim = str(d, kd);
    if (s === null || delim === null) return null;
    const parts = delim === '' ? [s] : s.split(delim);
    if (typeof idx === 'number') {
      const part = parts[Math.trunc(idx)];
      return part === undefined ? [] : [part];
    }
    return parts;
  },
  replace_string: ([lookup, rewrite, v], kinds) => {
    const s = str(v, kinds[2]);
    const l = str(lookup, kinds[0]);
    const r = str(rewrite, kinds[1]) ?? '';
    if (s === null || l === null) return null;
    return l === '' ? s : s.split(l).join(r);
  },
  replace_regex: ([re, rewrite, v], kinds) => {
    const s = str(v, kinds[2]);
    const p = str(re, kinds[0]);
    const r = str(rewrite, kinds[1]) ?? '';
    if (s === null || p === null) return null;
    const compiled = compileRegex(p, 'g');
    // APL uses `$0` (whole match), `$1`… or `\1`… for groups; expanded here because RE2's string
    // replacement (like JS) does not know `$0`.
    return s.replace(compiled as unknown as RegExp, (...m: unknown[]) => {
      const groups = m.slice(
        0,
        m.findIndex((x) => typeof x === 'number'),
      );
      return r.replace(/\$(\d)|\\(\d)/g, (_t, a?: string, b?: string) => {
        const g = groups[Number(a ?? b)];
        return typeof g === 'string' ? g : '';
      });
    });
  },
  extract: ([re, group, v, typed], kinds) => {
    const s = str(v, kinds[2]);
    const p = str(re, kinds[0]);
    if (s === null || p === null || typeof group !== 'number') return null;
    const m = compileRegex(p).exec(s);
    if (!m) return null;
    const g = m[group];
    if (g === undefined) return null;
    if (kinds.length === 4) {
      // `typeof(long)` arrives as a constant column of that kind (the literal's value is not kept).
      const t =
        typed && typeof typed === 'object' && 'typeof' in (typed as object)
          ? (typed as { typeof: string }).typeof
          : kinds[3];
      if (t === 'long') return num(g, 'string') === null ? null : Math.trunc(num(g, 'string')!);
      if (t === 'real') return num(g, 'string');
    }
    return g;
  },
  extract_all: (args, kinds) => {
    const p = str(args[0], kinds[0]);
    const s = str(args[args.length - 1], kinds[args.length - 1]);
    if (s === null || p === null) return null;
    const re = compileRegex(p, 'g');
    const out: unknown[] = [];
    let m: RegExpExecArray | null;
    // captureGroups: group numbers and/or names (`dynamic(['first', 2, 'last'])`, Kusto).
    const groups = args.length === 3 && Array.isArray(args[1]) ? (args[1] as unknown[]) : null;
    const groupOf = (m: RegExpExecArray, g: unknown) =>
      (typeof g === 'number' ? m[g] : typeof g === 'string' ? m.groups?.[g] : undefined) ?? null;
    while ((m = re.exec(s)) !== null) {
      if (m[0] === '') re.lastIndex++;
      const match = m;
      if (groups)
        out.push(groups.length === 1 ? groupOf(match, groups[0]) : groups.map((g) => groupOf(match, g)));
      else if (m.length <= 2) out.push(m.length === 2 ? m[1] : m[0]);
      else out.push(m.slice(1));
    }
    return out.length ? out : null;
  },
  indexof: ([v, lookup, start, length, occurrence], kinds) => {
    const s = str(v, kinds[0]);
    const l = str(lookup, kinds[1]);
    if (s === null || l === null) return null;
    let from = typeof start === 'number' ? Math.trunc(start) : 0;
    if (from < 0) from = Math.max(0, s.length + from);
    if (from > s.length) return -1;
    const count = typeof length === 'number' ? Math.trunc(length) : -1;
    const nth = typeof occurrence === 'number' ? Math.trunc(occurrence) : 1;
    if (count < -1 || nth < 0) return null;
    // Kusto: each occurrence is searched from one past the previous one over `length` positions, and the
    // match must fit in them (indexof("abcdefgabcdefg", "cde", 1, 10, 2) is 9; ("abcdefg", "cde", 1, 2) is -1).
    let pos = from - 1;
    for (let k = 0; k < Math.max(nth, 1); k++) {
      const at = s.indexOf(l, pos + 1);
      const end = count === -1 ? s.length : pos + 1 + count;
      if (at < 0 || at + l.length > end) return -1;
      pos = at;
    }
    return pos;
  },
  countof: ([search, text, kind], kinds) => {
    const t = str(text, kinds[1]);
    const s = str(search, kinds[0]);
    if (t === null || s === null || s === '') return null;
    // kind "regex" (Kusto): non-overlapping regex matches, as countof_regex counts them.
    if (typeof kind === 'string' && kind.toLowerCase() === 'regex') return countRegex(s, t);
    // Plain matches may overlap (Kusto: countof("aaaa", "aa") is 3); the argument order is Axiom's.
    let n = 0;
    for (let at = t.indexOf(s); at >= 0; at = t.indexOf(s, at + 1)) n++;
    return n;
  },
  trim: ([cut, v], kinds) => {
    const s = str(v, kinds[1]);
    const c = str(cut, kinds[0]);
    return s === null || c === null ? null : trimChars(s, c, true, true);
  },
  trim_start: ([cut, v], kinds) => {
    const s = str(v, kinds[1]);
    const c = str(cut, kinds[0]);
    return s === null || c === null ? null : trimChars(s, c, true, false);
  },
  trim_end: ([cut, v], kinds) => {
    const s = str(v, kinds[1]);
    const c = str(cut, kinds[0]);
    return s === null || c === null ? null : trimChars(s, c, false, true);
  },
  trim_space: ([v], [k]) => str(v, k)?.trim() ?? null,
  reverse: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : [...s].reverse().join('');
  },
  strrep: ([v, n, d], kinds) => {
    const s = str(v, kinds[0]);
    if (s === null || typeof n !== 'number') return null;
    const count = Math.min(1024, Math.max(0, Math.trunc(n)));
    return new Array(count).fill(s).join(str(d, kinds[2]) ?? '');
  },
  strcmp: ([a, b], kinds) => {
    const x = str(a, kinds[0]);
    const y = str(b, kinds[1]);
    if (x === null || y === null) return null;
    return x < y ? -1 : x > y ? 1 : 0;
  },
  url_encode: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : encodeURIComponent(s);
  },
  url_decode: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    try {
      return decodeURIComponent(s.replace(/\+/g, ' '));
    } catch {
      return null;
    }
  },
  base64_encode_tostring: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : Buffer.from(s, 'utf8').toString('base64');
  },
  base64_decode_tostring: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    // Kusto: bytes that are not valid UTF-8 decode to null, not to replacement characters.
    const bytes = strictBase64Bytes(s);
    if (bytes === null) return null;
    try {
      return UTF8_STRICT.decode(bytes);
    } catch {
      return null;
    }
  },
  quote: ([v], [k]) => JSON.stringify(str(v, k) ?? ''),
  regex_quote: ([v], [k]) => str(v, k)?.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') ?? null,
  strcat_array: ([a, d], kinds) =>
    Array.isArray(a)
      ? a
          .map((x) => (isNullish(x) ? '' : typeof x === 'object' ? JSON.stringify(x) : String(x)))
          .join(str(d, kinds[1]) ?? '')
      : null,
  parse_url: ([v], [k]) => {
    const s = str(v, k);
    if (s === null) return null;
    try {
      const u = new URL(s);
      const query: Record<string, string> = {};
      u.searchParams.forEach((val, key) => (query[key] = val));
      return {
        scheme: u.protocol.replace(/:$/, ''),
        host: u.hostname,
        port: u.port,
        path: u.pathname,
        username: u.username,
        password: u.password,
        query,
        fragment: u.hash.replace(/^#/, ''),
      };
    } catch {
      return null;
    }
  },
};
