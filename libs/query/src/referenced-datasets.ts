import type { InExpr, Operator, Query, TabularExpr, TabularSource } from '@quarry/apl';
import { matchDatasetPattern } from '@quarry/query-plan';
import { isSharedTree } from './parse-cache';

/**
 * Dataset names a parsed query reads, in order of first appearance (`let`-bound tables excluded). A name
 * pattern (`union logs*`, leading `search`) contributes the datasets of `allNames` it matches; without
 * `allNames` it contributes the pattern itself, which no real dataset is called (so an access check on it
 * only passes for a grant over every dataset).
 */
export function datasetsOfQuery(query: Query, allNames?: readonly string[]): string[] {
  const lets = new Set<string>();
  const out: string[] = [];
  const add = (name: string) => {
    if (!out.includes(name)) out.push(name);
  };
  const visitSource = (s: TabularSource) => {
    switch (s.kind) {
      case 'dataset':
        if (!lets.has(s.name)) add(s.name);
        break;
      case 'dataset-pattern':
        if (allNames) matchDatasetPattern(s.pattern, allNames).forEach(add);
        else add(s.pattern);
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
  // `x in (T | ...)` subqueries read datasets too (`let` names known by now).
  subqueriesOf(query, true).forEach(visit);
  return out;
}

/**
 * The tabular subqueries of `in` expressions, in text order. With `nested`, also those inside other
 * subqueries, innermost first (the order they must run in).
 */
export function subqueriesOf(query: Query, nested = false): readonly TabularExpr[] {
  // A tree from the parse cache never changes: its walk (the whole tree, every run) is done once.
  if (!isSharedTree(query)) return findSubqueries(query, nested);
  const memo = nested ? nestedSubqueries : topSubqueries;
  let found = memo.get(query);
  if (found === undefined) {
    found = Object.freeze(findSubqueries(query, nested));
    memo.set(query, found);
  }
  return found;
}

const topSubqueries = new WeakMap<Query, readonly TabularExpr[]>();
const nestedSubqueries = new WeakMap<Query, readonly TabularExpr[]>();

function findSubqueries(query: Query, nested: boolean): TabularExpr[] {
  const out: TabularExpr[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    // A literal's value is data (`dynamic({...})`), never syntax.
    if ((node as { kind?: unknown }).kind === 'literal') return;
    const expr = node as InExpr;
    if (expr.kind === 'in' && expr.subquery) {
      walk(expr.left);
      if (nested) walk(expr.subquery);
      out.push(expr.subquery);
      return;
    }
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') walk(value);
  };
  walk(query.statements);
  walk(query.body);
  return out;
}

/** Whether the query names datasets by pattern (and so needs the list of dataset names). */
export function hasDatasetPattern(query: Query): boolean {
  return datasetsOfQuery(query).some((name) => name.includes('*'));
}
