/**
 * mv-expand: one output row per array element (or bag entry) of the expanded columns. Several columns
 * are zipped: an input row gives as many rows as its longest array, shorter ones padded with null. A
 * row whose arrays and bags are all empty gives none (Kusto's mv-expand page).
 */
import { selectRows, type Column, type ColumnBatch } from '@quarry/contracts';
import type { MvExpandNode } from '@quarry/query-plan';
import { buildColumn, readValue } from '../columns';
import { evaluate } from '../eval/evaluate';
import { CONVERSION_FUNCTIONS } from '../functions/conversions';
import type { BatchStream, ExecEnv } from './exec-env';

const CONVERT: Record<string, string> = {
  long: 'tolong',
  real: 'toreal',
  string: 'tostring',
  bool: 'tobool',
  datetime: 'todatetime',
  timespan: 'totimespan',
};

/** The elements one value expands to: an array's items, a bag's entries, else the value itself. */
function elementsOf(v: unknown, kind: Column['kind'], bagExpansion: 'bag' | 'array'): unknown[] {
  if (typeof v === 'string' && kind === 'dynamic') return [v];
  if (Array.isArray(v)) return v;
  if (v !== null && typeof v === 'object')
    return Object.entries(v).map(([k, x]) => (bagExpansion === 'bag' ? { [k]: x } : [k, x]));
  return [v];
}

export async function* mvExpand(input: BatchStream, node: MvExpandNode, env: ExecEnv): BatchStream {
  const cap = node.limit ?? Infinity;
  for await (const batch of input) {
    const sources = node.items.map((item) => evaluate(item.expr, batch, env.ctx));
    const sel: number[] = [];
    const values: unknown[][] = node.items.map(() => []);
    const indexes: number[] = [];
    for (let i = 0; i < batch.length; i++) {
      const lists = sources.map((s) => elementsOf(readValue(s, i), s.kind, node.bagExpansion));
      // Kusto's page: a null gives one row (a null element), an empty array or bag none; zipped
      // columns give the most rows any of them gives (a row with `[]` and `[1, 2]` gives two).
      const rows = Math.min(cap, Math.max(...lists.map((l) => l.length)));
      for (let j = 0; j < rows; j++) {
        sel.push(i);
        lists.forEach((l, k) => values[k].push(l[j] ?? null));
        indexes.push(j);
      }
    }
    const expanded = selectRows(batch, sel);
    const columns = new Map<string, Column>(expanded.columns);
    node.items.forEach((item, k) => {
      const conv = item.toType ? CONVERSION_FUNCTIONS[CONVERT[item.toType]] : null;
      const converted = conv ? values[k].map((x) => conv([x], ['dynamic'])) : values[k];
      columns.set(item.column, buildColumn(converted, item.toType ?? 'dynamic'));
    });
    if (node.itemIndex) columns.set(node.itemIndex, buildColumn(indexes, 'long'));
    const out: ColumnBatch = { length: sel.length, columns };
    if (out.length > 0) yield out;
  }
}
