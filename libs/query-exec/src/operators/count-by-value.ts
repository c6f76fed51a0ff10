/**
 * `summarize count() by S` and `where S == "x" | count` from per-value row counts
 * (`DatasetSource.countValues`): blocks record how many rows hold each value of a low-cardinality string
 * column, so these answers need no column decoded for the blocks inside the query window. Exact: the
 * counts are the rows, and the filter is decided per value by the same comparison the row-by-row path
 * applies (`stringComparison`). Any other shape, or a column that is not a string everywhere, takes the
 * general path.
 */
import type { Column, StringColumn } from '@quarry/contracts';
import type { AggregateNode, PlanNode, ScanNode } from '@quarry/query-plan';
import { stringComparison } from '../eval/direct-select';
import type { BatchStream, ExecEnv } from './exec-env';

export interface CountByValue {
  scan: ScanNode;
  /** The string column counted. */
  column: string;
  /** The output key column (`by S`), or null for a plain count. */
  key: string | null;
  /** Which values the scan's filter keeps; null without a filter. */
  passes: ((value: string | null) => boolean) | null;
}

/**
 * The shape answered here: only `count()`s, no key or one key that is a string column, over a scan whose
 * filter is absent or one comparison of that column (or, without a key, of any column) with a string.
 */
export function countByValueShape(node: AggregateNode): CountByValue | null {
  const scan = node.input;
  if (scan.kind !== 'scan' || node.keys.length > 1 || node.timeBucketMs !== undefined) return null;
  if (
    node.aggs.length === 0 ||
    !node.aggs.every((a) => a.fn === 'count' && a.args.length === 0 && a.predicate === null)
  )
    return null;
  let key: string | null = null;
  let column: string | null = null;
  if (node.keys.length === 1) {
    const k = node.keys[0];
    if (k.expr.kind !== 'col' || k.expr.type !== 'string') return null;
    key = k.name;
    column = k.expr.name;
  }
  let passes: CountByValue['passes'] = null;
  if (scan.filter !== null) {
    const f = scan.filter;
    if (f.kind !== 'call' || f.args.length !== 2) return null;
    const [left, right] = f.args;
    if (left.kind !== 'col' || left.type !== 'string') return null;
    if (right.kind !== 'lit' || right.type !== 'string' || typeof right.value !== 'string') return null;
    if (column !== null && left.name !== column) return null;
    column = left.name;
    passes = stringComparison(f.fn, right.value);
    if (passes === null) return null;
  }
  // No key and no filter is a plain count (answered from row counts alone).
  if (column === null) return null;
  return { scan, column, key, passes };
}

/** Answers the aggregate from value counts; `general` runs it the usual way when they are not to be had. */
export async function* countByValue(
  node: AggregateNode,
  shape: CountByValue,
  env: ExecEnv,
  matched: PlanNode,
  general: () => BatchStream,
): BatchStream {
  const { scan } = shape;
  const source = env.sources.get(scan.dataset)!;
  const counts =
    scan.endMs <= scan.startMs
      ? new Map<string | null, number>()
      : await source.countValues!(shape.column, scan.startMs, scan.endMs, env.stats);
  if (counts === null) {
    yield* general();
    return;
  }
  const kept: [string | null, number][] = [];
  let rows = 0;
  for (const [value, n] of counts) {
    if (shape.passes !== null && !shape.passes(value)) continue;
    kept.push([value, n]);
    rows += n;
  }
  if (matched === scan) env.counters.rowsMatched += rows;
  const countColumn = (values: Float64Array): Column => ({ kind: 'long', values, nulls: null });
  const columns = new Map<string, Column>();
  if (shape.key === null) {
    env.counters.numGroups = 1;
    for (const call of node.aggs) columns.set(call.outputs[0].name, countColumn(Float64Array.of(rows)));
    yield { length: 1, columns };
    return;
  }
  // The same limit as a summarize that scans (QUARRY_QUERY_MAX_GROUPS).
  env.budget.checkGroups(kept.length);
  env.counters.numGroups = kept.length;
  const dict: string[] = [];
  const codes = new Int32Array(kept.length);
  kept.forEach(([value], i) => (codes[i] = value === null ? -1 : dict.push(value) - 1));
  const keyColumn: StringColumn = { kind: 'string', codes, dict };
  columns.set(shape.key, keyColumn);
  const perGroup = Float64Array.from(kept, ([, n]) => n);
  for (const call of node.aggs) columns.set(call.outputs[0].name, countColumn(perGroup.slice()));
  if (kept.length > 0) yield { length: kept.length, columns };
}
