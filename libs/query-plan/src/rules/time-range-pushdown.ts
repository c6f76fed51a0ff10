/**
 * Time-range pushdown: conjuncts of a scan's predicate of the form `_time >= c`, `_time > c`,
 * `_time < c`, `_time <= c` or `_time between (a .. b)` (constant bounds) narrow the scan window, so
 * storage can skip whole blocks. `>=` and `<` are exactly the window's own semantics and are removed
 * from the predicate; the others stay (the window is only a superset for them at µs precision).
 */
import { constantTime } from '../const-time';
import { andAll, conjuncts, type PExpr } from '../expr';
import type { PlanNode, ScanNode } from '../nodes/plan-node';
import { transformUp, type OptimizerRule } from './rule';

const FLIP: Record<string, string> = { '<': '>', '<=': '>=', '>': '<', '>=': '<=' };
/** The smallest step between datetimes (one microsecond, in ms). */
const EPSILON_MS = 0.001;

function isTime(e: PExpr): boolean {
  return e.kind === 'col' && e.name === '_time';
}

function narrow(scan: ScanNode): ScanNode {
  if (!scan.filter) return scan;
  let start = scan.startMs;
  let end = scan.endMs;
  const keep: PExpr[] = [];
  for (const c of conjuncts(scan.filter)) {
    if (c.kind !== 'call') {
      keep.push(c);
      continue;
    }
    if (c.fn === 'between' && isTime(c.args[0])) {
      const lo = constantTime(c.args[1]);
      let hi = constantTime(c.args[2]);
      if (lo !== null && hi !== null) {
        if (c.args[2].type === 'timespan') hi = lo + hi;
        start = Math.max(start, lo);
        end = Math.min(end, hi + EPSILON_MS);
      }
      keep.push(c);
      continue;
    }
    let op = c.fn;
    let bound: number | null = null;
    if (FLIP[op] && c.args.length === 2) {
      if (isTime(c.args[0]) && c.args[1].type === 'datetime') bound = constantTime(c.args[1]);
      else if (isTime(c.args[1]) && c.args[0].type === 'datetime') {
        bound = constantTime(c.args[0]);
        op = FLIP[op];
      }
    }
    if (bound === null) {
      keep.push(c);
      continue;
    }
    switch (op) {
      case '>=':
        start = Math.max(start, bound);
        break;
      case '>':
        start = Math.max(start, bound);
        keep.push(c);
        break;
      case '<':
        end = Math.min(end, bound);
        break;
      case '<=':
        end = Math.min(end, bound + EPSILON_MS);
        keep.push(c);
        break;
    }
  }
  if (end < start) end = start;
  return { ...scan, startMs: start, endMs: end, filter: andAll(keep) };
}

export const timeRangePushdown: OptimizerRule = {
  name: 'time-range-pushdown',
  apply: (root: PlanNode) => transformUp(root, (n) => (n.kind === 'scan' ? narrow(n) : n)),
};
