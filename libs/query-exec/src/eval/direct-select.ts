/**
 * Selection vectors straight from the commonest `where` shapes: a column compared with a literal
 * (`status == '500'`, `req_duration_ms > 100`, `_time >= datetime(...)`) and `and` of such comparisons.
 * The general path evaluates the predicate into a bool column (after materializing the literal as a
 * column) and then scans it for true rows; here each row is tested once and only selected row numbers are
 * written. Results are identical to `selectWhere(evaluate(predicate))`: the same null rules and
 * comparison functions (compare.ts) decide every row. Anything else answers null and takes the general
 * path.
 */
import type { Column, ColumnBatch, ColumnKind } from '@quarry/contracts';
import type { PExpr } from '@quarry/query-plan';
import { NUMERIC_KINDS, nullResult, orderResult, strCmp } from './compare';

const ORDERED = new Set(['==', '!=', '<', '<=', '>', '>=']);

/** Rows of `batch` where `predicate` is true, or null when the predicate is not a shape handled here. */
export function directSelection(predicate: PExpr, batch: ColumnBatch): Uint32Array | null {
  const tests: RowTest[] = [];
  if (!collectTests(predicate, batch, tests)) return null;
  let sel: Uint32Array | null = null;
  for (const test of tests) sel = test(sel, batch.length);
  return sel;
}

/** Narrows `candidates` (all rows when null) to the rows that pass. */
type RowTest = (candidates: Uint32Array | null, n: number) => Uint32Array;

function collectTests(e: PExpr, batch: ColumnBatch, out: RowTest[]): boolean {
  if (e.kind !== 'call') return false;
  if (e.fn === 'and') return collectTests(e.args[0], batch, out) && collectTests(e.args[1], batch, out);
  if (!ORDERED.has(e.fn)) return false;
  const [left, right] = e.args;
  if (left.kind !== 'col' || right.kind !== 'lit' || right.value === null || right.value === undefined)
    return false;
  const column = batch.columns.get(left.name);
  if (column === undefined) return false;
  const test = comparisonTest(e.fn, column, right.value, right.type as ColumnKind);
  if (test === null) return false;
  out.push(test);
  return true;
}

/**
 * Whether a string value passes `column op literal` (`op` one of `==`, `!=`, `<`, `<=`, `>`, `>=`; null
 * for a null row), by the same rules as the row-by-row path; null for any other operator.
 */
export function stringComparison(op: string, literal: string): ((value: string | null) => boolean) | null {
  if (!ORDERED.has(op)) return null;
  const nullPasses = nullResult(op, true, false) === true;
  return (value) => (value === null ? nullPasses : orderResult(op, strCmp(value, literal)));
}

function comparisonTest(op: string, column: Column, value: unknown, valueKind: ColumnKind): RowTest | null {
  const nullPasses = nullResult(op, true, false) === true ? 1 : 0;
  if (column.kind === 'string' && valueKind === 'string' && typeof value === 'string') {
    // One comparison per dictionary entry; a row's outcome is a table lookup.
    const passes = stringComparison(op, value)!;
    const pass = new Uint8Array(column.dict.length);
    for (let c = 0; c < pass.length; c++) pass[c] = passes(column.dict[c]) ? 1 : 0;
    return (candidates, n) => selectByCode(column.codes, pass, nullPasses, candidates, n);
  }
  if (NUMERIC_KINDS.has(column.kind) && NUMERIC_KINDS.has(valueKind) && typeof value === 'number') {
    const { values, nulls } = column as Extract<Column, { values: Float64Array }>;
    // The outcome for x < v, x > v and neither (equal, or NaN as in numericCompare).
    const outcome = Uint8Array.of(
      orderResult(op, -1) ? 1 : 0,
      orderResult(op, 1) ? 1 : 0,
      orderResult(op, 0) ? 1 : 0,
    );
    return (candidates, n) => selectByValue(values, nulls, value, outcome, nullPasses, candidates, n);
  }
  return null;
}

function selectByCode(
  codes: Int32Array,
  pass: Uint8Array,
  nullPasses: number,
  candidates: Uint32Array | null,
  n: number,
): Uint32Array {
  let m = 0;
  if (candidates === null) {
    const sel = new Uint32Array(n);
    for (let i = 0; i < n; i++) {
      const code = codes[i];
      // Branch-free append: the slot is always written, the count moves only for a passing row.
      sel[m] = i;
      m += code >= 0 ? pass[code] : nullPasses;
    }
    return sel.subarray(0, m);
  }
  const sel = candidates.slice();
  for (let j = 0; j < sel.length; j++) {
    const i = sel[j];
    const code = codes[i];
    sel[m] = i;
    m += code >= 0 ? pass[code] : nullPasses;
  }
  return sel.subarray(0, m);
}

function selectByValue(
  values: Float64Array,
  nulls: Uint8Array | null,
  v: number,
  outcome: Uint8Array,
  nullPasses: number,
  candidates: Uint32Array | null,
  n: number,
): Uint32Array {
  const lt = outcome[0];
  const gt = outcome[1];
  const eq = outcome[2];
  const sel = candidates === null ? new Uint32Array(n) : candidates.slice();
  const count = candidates === null ? n : candidates.length;
  let m = 0;
  for (let j = 0; j < count; j++) {
    const i = candidates === null ? j : sel[j];
    const x = values[i];
    sel[m] = i;
    m += nulls !== null && nulls[i] === 1 ? nullPasses : x < v ? lt : x > v ? gt : eq;
  }
  return sel.subarray(0, m);
}
