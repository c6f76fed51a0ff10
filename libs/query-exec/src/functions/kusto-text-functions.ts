/**
 * Kusto text functions APL lacks (Quarry extensions, docs/apl.md): `parse_version`, `has_any_index`,
 * `replace_strings` and `parse_user_agent`, each as its Kusto reference page documents it.
 */
import { readFileSync } from 'node:fs';
import type { ColumnKind } from '@quarry/contracts';
import RE2 from 're2';
import { parse as parseYaml } from 'yaml';
import { stringMatcher } from '../eval/string-match';
import { str, type ScalarImpl } from './scalar-impl';

// ---------------------------------------------------------------------------------------------------------
// parse_version

/** Kusto's page: one to four parts, each up to eight digits (max 99999999), separated by dots. */
const VERSION = /^\d{1,8}(?:\.\d{1,8}){0,3}$/;
const VERSION_PARTS = 4;
const PART_DIGITS = 8;

/**
 * `parse_version(v)`: Kusto answers a decimal (part1·10^24 + part2·10^16 + part3·10^8 + part4), which does
 * not fit a double. Quarry has no decimal type, so it answers that number's digits zero-padded to 32
 * characters: texts of equal length compare as their numbers do, so `<`, `max` and `sort` order versions
 * as Kusto does. Missing parts are trailing zeros (`1.0` == `1.0.0.0`); anything else is null.
 */
export function parseVersion(text: string): string | null {
  if (!VERSION.test(text)) return null;
  const parts = text.split('.');
  let out = '';
  for (let i = 0; i < VERSION_PARTS; i++) out += (parts[i] ?? '0').padStart(PART_DIGITS, '0');
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// has_any_index

/** The text an array element is looked up as (a number by its digits, as `has` converts it); null skips it. */
function termText(element: unknown): string | null {
  if (element === null || element === undefined) return null;
  if (typeof element === 'string') return element;
  if (typeof element === 'number' || typeof element === 'boolean') return String(element);
  return JSON.stringify(element);
}

/**
 * `has_any_index(source, values)`: the index of the first element of `values` that `source has` (whole
 * terms, case-insensitive: the very matcher of the `has` operator), -1 when none is or `values` is empty.
 * A scalar `values` is a one-element array; a null `source` is -1 (Kusto strings are never null: empty).
 */
export function hasAnyIndex(source: string, values: unknown): number {
  const list = Array.isArray(values) ? values : [values];
  for (let i = 0; i < list.length; i++) {
    const term = termText(list[i]);
    if (term === null) continue;
    if (stringMatcher('has', term).test(source)) return i;
  }
  return -1;
}

// ---------------------------------------------------------------------------------------------------------
// replace_strings

interface Match {
  start: number;
  end: number;
  /** null: a non-string rewrite, the matched text is kept (Kusto's page) but still claims its span. */
  rewrite: string | null;
}

function overlapsAny(claimed: Match[], start: number, end: number): boolean {
  for (const m of claimed) if (start < m.end && m.start < end) return true;
  return false;
}

/**
 * `replace_strings(text, lookups, rewrites)`: every lookup replaced by the rewrite at the same index, all
 * at once (a rewrite is never searched again). Kusto's page: "the earlier match takes the precedence" —
 * lookup 0 claims its non-overlapping occurrences left to right, then lookup 1 claims those that overlap
 * nothing claimed, and so on (`['is', 'This']` on "This is" gives "Thwas was"). A lookup that is not a
 * string (or is empty) is ignored; a rewrite that is not a string, or missing, keeps the matched text but
 * the match still stands, so no later lookup replaces inside it.
 */
export function replaceStrings(text: string, lookups: unknown, rewrites: unknown): string {
  const lookupList = Array.isArray(lookups) ? lookups : [lookups];
  const rewriteList = Array.isArray(rewrites) ? rewrites : [rewrites];
  const claimed: Match[] = [];
  for (let i = 0; i < lookupList.length; i++) {
    const lookup = lookupList[i];
    if (typeof lookup !== 'string' || lookup === '') continue;
    const rw = rewriteList[i];
    const rewrite = typeof rw === 'string' ? rw : null;
    let from = 0;
    for (;;) {
      const at = text.indexOf(lookup, from);
      if (at < 0) break;
      const end = at + lookup.length;
      if (overlapsAny(claimed, at, end)) {
        from = at + 1;
        continue;
      }
      claimed.push({ start: at, end, rewrite });
      from = end;
    }
  }
  if (claimed.length === 0) return text;
  claimed.sort((a, b) => a.start - b.start);
  let out = '';
  let pos = 0;
  for (const m of claimed) {
    out += text.slice(pos, m.start) + (m.rewrite ?? text.slice(m.start, m.end));
    pos = m.end;
  }
  return out + text.slice(pos);
}

// ---------------------------------------------------------------------------------------------------------
// parse_user_agent

interface UaRule {
  re: RE2;
  replacements: (string | undefined)[];
}

interface UapRules {
  browser: UaRule[];
  os: UaRule[];
  device: UaRule[];
}

type YamlRule = Record<string, string | undefined>;

let rules: UapRules | null = null;

/**
 * uap-core's regexes.yaml (the patterns Kusto's parse_user_agent is built on), compiled on first use.
 * They run on RE2 (linear time: a user agent is user input) — every pattern of uap-core compiles there.
 */
function uapRules(): UapRules {
  if (rules) return rules;
  const file = require.resolve('uap-core/regexes.yaml');
  const doc = parseYaml(readFileSync(file, 'utf8')) as Record<string, YamlRule[]>;
  const compile = (list: YamlRule[], keys: string[]): UaRule[] =>
    list.map((r) => ({
      re: new RE2(r.regex ?? '', r.regex_flag === 'i' ? 'i' : ''),
      replacements: keys.map((k) => r[k]),
    }));
  rules = {
    browser: compile(doc.user_agent_parsers, [
      'family_replacement',
      'v1_replacement',
      'v2_replacement',
      'v3_replacement',
    ]),
    os: compile(doc.os_parsers, [
      'os_replacement',
      'os_v1_replacement',
      'os_v2_replacement',
      'os_v3_replacement',
      'os_v4_replacement',
    ]),
    device: compile(doc.device_parsers, ['device_replacement', 'brand_replacement', 'model_replacement']),
  };
  return rules;
}

/** `$1`…`$9` of a replacement filled from the match (a group that did not take part is empty). */
function fill(replacement: string, groups: (string | undefined)[]): string {
  return replacement.replace(/\$(\d)/g, (_, d: string) => groups[Number(d)] ?? '');
}

/**
 * The fields of the first rule that matches, uap-core's specification: field i is its replacement (with
 * `$n` filled) or else capture group `groupOf[i]` (none: no default); trimmed; absent → "" (Kusto's page
 * shows a missing Patch as ""). No rule matching gives `Other` and empty fields.
 */
function firstMatch(list: UaRule[], ua: string, groupOf: (number | null)[]): string[] {
  for (const rule of list) {
    const m = rule.re.exec(ua);
    if (!m) continue;
    const groups = Array.from(m, (g) => g ?? undefined);
    return groupOf.map((g, i) => {
      const replacement = rule.replacements[i];
      const value =
        replacement !== undefined ? fill(replacement, groups) : g === null ? '' : (groups[g] ?? '');
      return value.trim();
    });
  }
  return groupOf.map((_, i) => (i === 0 ? 'Other' : ''));
}

const TARGETS = ['browser', 'os', 'device'] as const;
type Target = (typeof TARGETS)[number];

/** The parsed targets of one user agent, in the order asked (Kusto's key names). */
export function parseUserAgent(ua: string, targets: readonly Target[]): Record<string, unknown> {
  const r = uapRules();
  const out: Record<string, unknown> = {};
  for (const t of targets) {
    if (t === 'browser') {
      const [Family, MajorVersion, MinorVersion, Patch] = firstMatch(r.browser, ua, [1, 2, 3, 4]);
      out.Browser = { Family, MajorVersion, MinorVersion, Patch };
    } else if (t === 'os') {
      const [Family, MajorVersion, MinorVersion, Patch, PatchMinor] = firstMatch(r.os, ua, [1, 2, 3, 4, 5]);
      out.OperatingSystem = { Family, MajorVersion, MinorVersion, Patch, PatchMinor };
    } else {
      // Device: family and model both default to group 1; a brand only comes from a replacement.
      const [Family, Brand, Model] = firstMatch(r.device, ua, [1, null, 1]);
      out.Device = { Family, Brand, Model };
    }
  }
  return out;
}

/** `look-for`: "browser", "os", "device" (any case) or an array of them; null when none is valid. */
function targetsOf(lookFor: unknown, kind: ColumnKind): Target[] | null {
  const list = Array.isArray(lookFor) ? lookFor : [str(lookFor, kind)];
  const out: Target[] = [];
  for (const x of list) {
    if (typeof x !== 'string') continue;
    const t = TARGETS.find((name) => name === x.trim().toLowerCase());
    if (t && !out.includes(t)) out.push(t);
  }
  return out.length === 0 ? null : out;
}

/** Parsed user agents by text: a column of user agents repeats a few hundred distinct values. */
const UA_CACHE_LIMIT = 10_000;
const uaCache = new Map<string, Record<string, unknown>>();

function cachedParse(ua: string, targets: Target[]): Record<string, unknown> {
  const key = targets.join(',') + '\n' + ua;
  const hit = uaCache.get(key);
  if (hit) return structuredClone(hit);
  const parsed = parseUserAgent(ua, targets);
  if (uaCache.size >= UA_CACHE_LIMIT) uaCache.clear();
  uaCache.set(key, parsed);
  return structuredClone(parsed);
}

export const KUSTO_TEXT_FUNCTIONS: Record<string, ScalarImpl> = {
  parse_version: ([v], [k]) => {
    const s = str(v, k);
    return s === null ? null : parseVersion(s);
  },
  has_any_index: ([source, values], [k]) => hasAnyIndex(str(source, k) ?? '', values),
  replace_strings: ([text, lookups, rewrites], [k]) => {
    const s = str(text, k);
    return s === null ? null : replaceStrings(s, lookups, rewrites);
  },
  parse_user_agent: ([ua, lookFor], [k, lk]) => {
    const s = str(ua, k);
    if (s === null) return null;
    const targets = targetsOf(lookFor, lk);
    return targets === null ? null : cachedParse(s, targets);
  },
};
