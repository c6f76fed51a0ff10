/**
 * parse / parse-where (apl.md §7 parse). simple/relaxed: constants match their first occurrence after
 * the previous position, a capture takes the text up to the next constant; regex: the pattern is
 * compiled to one RE2 expression with a named group per capture, so groups written inside the regex
 * constants do not shift which text each capture receives.
 */
import type { Column, ColumnKind } from '@quarry/contracts';
import { selectRows } from '@quarry/contracts';
import type { ParseNode } from '@quarry/query-plan';
import type { ParsePart } from '@quarry/query-plan';
import { buildColumn, readValue, valueToString } from '../columns';
import { evaluate } from '../eval/evaluate';
import { CONVERSION_FUNCTIONS } from '../functions/conversions';
import { compileRegex } from '../regex';
import type { BatchStream, ExecEnv } from './exec-env';
import { parseKv } from './parse-kv';

const CONVERT: Record<string, string> = {
  long: 'tolong',
  real: 'toreal',
  bool: 'tobool',
  datetime: 'todatetime',
  timespan: 'totimespan',
  dynamic: 'parse_json',
};

function convert(text: string, type: ColumnKind): unknown {
  if (type === 'string') return text;
  const f = CONVERSION_FUNCTIONS[CONVERT[type]];
  if (!f) return text;
  if ((type === 'long' || type === 'real') && !/^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(text))
    return null;
  if (type === 'long' && !/^\s*[-+]?\d+\s*$/.test(text)) return null;
  return f([text], ['string']);
}

/** Name of the regex group of the j-th capture (kind=regex); unlikely to clash with a user's group. */
function captureGroup(j: number): string {
  return `quarry_capture_${j}`;
}

/** The text a typed capture followed by `*` takes: the longest value of its type at that position. */
const TYPED_TOKEN: Partial<Record<ColumnKind, RegExp>> = {
  long: /^[-+]?\d+/,
  real: /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/,
  bool: /^(true|false)/i,
};

/** The regex of a typed capture with kind=regex (other types: `.*`). */
const REGEX_CAPTURE: Partial<Record<ColumnKind, string>> = {
  long: '[-+]?\\d+',
  real: '[-+]?(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][-+]?\\d+)?',
  bool: '(?i:true|false)',
};

/** Returns capture texts, or null when the pattern does not match. */
function matchSimple(s: string, parts: ParsePart[]): string[] | null {
  const caps: string[] = [];
  let pos = 0;
  let pending = false; // a capture or skip waits for the next constant
  let anchored = true;
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p];
    if (part.kind === 'const') {
      const at = anchored && !pending ? (s.startsWith(part.text, pos) ? pos : -1) : s.indexOf(part.text, pos);
      if (at < 0) return null;
      if (pending && parts[p - 1].kind === 'capture') caps.push(s.slice(pos, at));
      pos = at + part.text.length;
      pending = false;
      anchored = true;
    } else {
      const prev = parts[p - 1];
      if (pending && prev.kind === 'capture') {
        // A typed capture followed by `*` reads what its type can hold (`totalSlices: long *` on "27, …"
        // is 27, Kusto's parse page); adjacent captures otherwise: the first is empty.
        const token = part.kind === 'skip' ? TYPED_TOKEN[prev.type]?.exec(s.slice(pos))?.[0] : undefined;
        caps.push(token ?? '');
        pos += token?.length ?? 0;
      }
      pending = true;
      if (part.kind === 'skip') anchored = false;
    }
  }
  if (pending && parts[parts.length - 1].kind === 'capture') caps.push(s.slice(pos));
  return caps;
}

export async function* parse(input: BatchStream, node: ParseNode, env: ExecEnv): BatchStream {
  const captures = node.parts.filter(
    (p): p is Extract<ParsePart, { kind: 'capture' }> => p.kind === 'capture',
  );
  const keys = captures.map((c) => c.name);
  let regex: ReturnType<typeof compileRegex> | null = null;
  if (node.mode === 'regex') {
    // `flags=` (kind=regex) apply to the whole pattern, as RE2 inline flags.
    const pattern =
      (node.flags ? `(?${node.flags})` : '') +
      node.parts
        .map((p) => {
          if (p.kind === 'const') return p.text;
          // Greedy, as Kusto's parse page shows (`flags=U` makes both lazy); Axiom documents no rule.
          if (p.kind === 'skip') return '.*';
          // A typed capture matches only text of its type (Kusto's parse page: `long` is `\-\d+`), so
          // the regex finds the occurrence that fits and a row whose text does not fit is no match.
          return `(?P<${captureGroup(captures.indexOf(p))}>${REGEX_CAPTURE[p.type] ?? '.*'})`;
        })
        .join('');
    regex = compileRegex(pattern + (node.parts[node.parts.length - 1]?.kind === 'capture' ? '$' : ''));
  }
  for await (const batch of input) {
    const src = evaluate(node.source, batch, env.ctx);
    const out = captures.map(() => new Array(batch.length).fill(null));
    const keep: number[] = [];
    for (let i = 0; i < batch.length; i++) {
      const v = readValue(src, i);
      if (v === null) continue;
      const s = valueToString(v, src.kind);
      if (node.mode === 'kv') {
        // parse-kv: a missing key or a value that does not convert is null; the row is always kept.
        const values = parseKv(s, keys, node.kv!);
        values.forEach((text, j) => (out[j][i] = text === null ? null : convert(text, captures[j].type)));
        keep.push(i);
        continue;
      }
      let texts: string[] | null;
      if (regex) {
        const m = regex.exec(s);
        texts = m ? captures.map((_, j) => m.groups?.[captureGroup(j)] ?? '') : null;
      } else {
        texts = matchSimple(s, node.parts);
      }
      if (!texts) continue;
      const converted = captures.map((c, j) => convert(texts![j] ?? '', c.type));
      const failed = converted.some((x, j) => x === null && captures[j].type !== 'string');
      if (failed && node.mode !== 'relaxed') continue; // simple and regex are strict (Kusto's parse page)
      keep.push(i);
      converted.forEach((x, j) => (out[j][i] = x));
    }
    const columns = new Map<string, Column>(batch.columns);
    captures.forEach((c, j) => {
      columns.delete(c.name);
      columns.set(c.name, buildColumn(out[j], c.type));
    });
    const full = { length: batch.length, columns };
    if (node.dropUnmatched) {
      const sel = selectRows(full, keep);
      if (sel.length) yield sel;
    } else {
      yield full;
    }
  }
}
