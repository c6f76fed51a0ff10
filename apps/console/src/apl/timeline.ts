/**
 * The event-timeline query drawn above raw results: the same pipeline without its trailing
 * `take`/`limit`/`sort`/`order`/`project…` operators (they change which rows show, not how many
 * match), counted by `bin_auto(_time)` — one query for the whole histogram, never one per bucket.
 */
export function timelineQuery(apl: string): string {
  const parts = splitPipes(apl);
  while (
    parts.length > 1 &&
    /^\s*(take|limit|sort|order|project(-away|-keep|-reorder|-rename)?)\b/.test(parts[parts.length - 1]!)
  )
    parts.pop();
  return `${parts.join('|').trimEnd()}\n| summarize count() by bin_auto(_time)`;
}

/** Splits at pipes outside strings, brackets and comments. */
function splitPipes(apl: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let start = 0;
  for (let i = 0; i < apl.length; i++) {
    const c = apl[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '/' && apl[i + 1] === '/') {
      const end = apl.indexOf('\n', i);
      i = end === -1 ? apl.length : end;
    } else if (c === '(' || c === '[' || c === '{') depth++;
    else if (c === ')' || c === ']' || c === '}') depth--;
    else if (c === '|' && depth === 0) {
      parts.push(apl.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(apl.slice(start));
  return parts;
}
