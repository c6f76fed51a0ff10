import type { Operator, Query, TabularExpr, TabularSource } from '@quarry/apl';

/** Dataset names a parsed query reads, in order of first appearance (`let`-bound tables excluded). */
export function datasetsOfQuery(query: Query): string[] {
  const lets = new Set<string>();
  const out: string[] = [];
  const visitSource = (s: TabularSource) => {
    switch (s.kind) {
      case 'dataset':
        if (!lets.has(s.name) && !out.includes(s.name)) out.push(s.name);
        break;
      case 'subquery':
        visit(s.query);
        break;
      case 'union':
        s.tables.forEach(visit);
        break;
      default:
        break;
    }
  };
  const visitOp = (op: Operator) => {
    if (op.kind === 'join' || op.kind === 'lookup') visit(op.right);
    if (op.kind === 'union') op.tables.forEach(visit);
  };
  const visit = (t: TabularExpr) => {
    visitSource(t.source);
    t.operators.forEach(visitOp);
  };
  for (const st of query.statements) {
    if (st.kind === 'let-tabular') {
      visit(st.query);
      lets.add(st.name);
    }
  }
  visit(query.body);
  return out;
}
