/** mv-expand: one output row per array element (or bag entry) of the expanded column. */
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

export async function* mvExpand(input: BatchStream, node: MvExpandNode, env: ExecEnv): BatchStream {
  for await (const batch of input) {
    const source = evaluate(node.expr, batch, env.ctx);
    const sel: number[] = [];
    const items: unknown[] = [];
    const indexes: number[] = [];
    for (let i = 0; i < batch.length; i++) {
      let v = readValue(source, i);
      if (typeof v === 'string' && source.kind === 'dynamic') v = [v];
      let elements: unknown[];
      if (Array.isArray(v)) elements = v;
      else if (v !== null && typeof v === 'object')
        elements = Object.entries(v).map(([k, x]) => ({ [k]: x }));
      else elements = [v];
      if (elements.length === 0) elements = [null];
      const cap = node.limit ?? Infinity;
      for (let j = 0; j < elements.length && j < cap; j++) {
        sel.push(i);
        items.push(elements[j]);
        indexes.push(j);
      }
    }
    const expanded = selectRows(batch, sel);
    const columns = new Map<string, Column>();
    const conv = node.toType ? CONVERSION_FUNCTIONS[CONVERT[node.toType]] : null;
    const values = conv ? items.map((x) => conv([x], ['dynamic'])) : items;
    for (const [name, col] of expanded.columns) columns.set(name, col);
    columns.set(node.column, buildColumn(values, node.toType ?? 'dynamic'));
    if (node.itemIndex) columns.set(node.itemIndex, buildColumn(indexes, 'long'));
    const out: ColumnBatch = { length: sel.length, columns };
    if (out.length > 0) yield out;
  }
}
