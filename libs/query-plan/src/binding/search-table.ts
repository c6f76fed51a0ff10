/**
 * The `$table` column of a piped `search` (Kusto's search page: "the table name from which each record was
 * retrieved (or some system-generated name if the source isn't a table but a composite expression)").
 */
import type { PlanNode } from '../nodes/plan-node';

/** The column a `search` adds (Kusto). */
export const SEARCH_TABLE_COLUMN = '$table';

/** The name of rows that come from no table and no `as` (the name `union withsource=` gives them too). */
export const UNNAMED_INPUT = 'input';

/**
 * The table the rows of `plan` were retrieved from: the nearest `as` name (`asNames`), else the dataset
 * under operators that keep each row's origin (filters, columns, order, row caps, parse, mv-expand), else
 * UNNAMED_INPUT for a composite (summarize, join, union, inline rows).
 */
export function searchTableName(plan: PlanNode, asNames: WeakMap<PlanNode, string>): string {
  for (let n: PlanNode = plan; ;) {
    const named = asNames.get(n);
    if (named !== undefined) return named;
    switch (n.kind) {
      case 'scan':
        return n.dataset;
      case 'filter':
      case 'extend':
      case 'project':
      case 'sort':
      case 'limit':
      case 'top':
      case 'parse':
      case 'mv-expand':
        n = n.input;
        break;
      default:
        return UNNAMED_INPUT;
    }
  }
}
