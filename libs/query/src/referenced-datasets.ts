import type {
  FunctionDefinition,
  FunctionInvocation,
  InExpr,
  Operator,
  Query,
  Statement,
  TabularExpr,
  TabularSource,
} from '@quarry/apl';
import { matchDatasetPattern } from '@quarry/query-plan';
import { isSharedTree } from './parse-cache';

/**
 * Dataset names a parsed query reads, in order of first appearance (`let`-bound tables excluded). A name
 * pattern (`union logs*`, leading `search`) contributes the datasets of `allNames` it matches; without
 * `allNames` it contributes the pattern itself, which no real dataset is called (so an access check on it
 * only passes for a grant over every dataset).
 */
export function datasetsOfQuery(query: Query, allNames?: readonly string[]): string[] {
  const out: string[] = [];
  const add = (name: string) => {
    if (!out.includes(name)) out.push(name);
  };
  // The `in`/`toscalar` subqueries of function bodies, visited in the body's scope (not the query's).
  const inFunctions = new Set<TabularExpr>();
  const visitSource = (s: TabularSource, lets: ReadonlySet<string>) => {
    switch (s.kind) {
      case 'dataset':
        if (!lets.has(s.name) && !asNames.has(s.name)) add(s.name);
        break;
      case 'dataset-pattern':
        if (allNames) matchDatasetPattern(s.pattern, allNames).forEach(add);
        else add(s.pattern);
        break;
      case 'subquery':
        // A function call's body is visited with its definition, in the function's scope.
        if (!s.invoke) visit(s.query, lets);
        break;
      case 'union':
      case 'find':
        s.tables.forEach((t) => visit(t, lets));
        break;
      default:
        break;
    }
  };
  // Names given by `as` to the rows so far: later parts of the query read them as tables (a join's right
  // side, a union leg), not as datasets.
  const asNames = new Set<string>();
  const visitOp = (op: Operator, lets: ReadonlySet<string>) => {
    if (op.kind === 'as') asNames.add(op.name);
    if (op.kind === 'join' || op.kind === 'lookup') visit(op.right, lets);
    if (op.kind === 'union') op.tables.forEach((t) => visit(t, lets));
  };
  const visit = (t: TabularExpr, lets: ReadonlySet<string>) => {
    visitSource(t.source, lets);
    t.operators.forEach((op) => visitOp(op, lets));
  };
  const visitStatements = (statements: readonly Statement[], lets: Set<string>) => {
    for (const st of statements) {
      if (st.kind === 'let-tabular') {
        visit(st.query, lets);
        lets.add(st.name);
      } else if (st.kind === 'let-function') {
        visitFunction(st.definition, lets);
        lets.delete(st.definition.name);
      } else if (st.kind === 'let-scalar') lets.delete(st.name);
    }
  };
  // `let f = () { let T = ds | count; T }`: the body's own tabular lets read datasets and name tables
  // seen only inside the body (and the functions it defines, each with its own scope).
  const visitFunction = (fn: FunctionDefinition, outer: ReadonlySet<string>) => {
    const lets = new Set(outer);
    for (const p of fn.params) lets.delete(p.name);
    visitStatements(fn.statements, lets);
    if (fn.result.kind === 'tabular') visit(fn.result.query, lets);
    for (const sub of inSubqueriesUnder([fn.statements, fn.result], { nested: true, ownScopeOnly: true })) {
      inFunctions.add(sub);
      visit(sub, lets);
    }
  };
  const lets = new Set<string>();
  visitStatements(query.statements, lets);
  visit(query.body, lets);
  // `x in (T | ...)` subqueries read datasets too (`let` names known by now).
  for (const sub of subqueriesOf(query, true)) if (!inFunctions.has(sub)) visit(sub, lets);
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
  return inSubqueriesUnder([query.statements, query.body], { nested, ownScopeOnly: false });
}

/**
 * The tabular subqueries of the `in` (and `toscalar`) expressions under `root`, in text order; with
 * `nested`, also those inside other subqueries, innermost first (the order they must run in). With
 * `ownScopeOnly` (a function body), not those of the functions it defines or calls: each is visited in
 * its own scope.
 */
function inSubqueriesUnder(
  root: unknown,
  options: { nested: boolean; ownScopeOnly: boolean },
): TabularExpr[] {
  const out: TabularExpr[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const kind = (node as { kind?: unknown }).kind;
    // A literal's value is data (`dynamic({...})`), never syntax.
    if (kind === 'literal') return;
    if (options.ownScopeOnly) {
      if (kind === 'let-function') return;
      if (kind === 'subquery' && (node as { invoke?: FunctionInvocation }).invoke) {
        walk((node as { invoke: FunctionInvocation }).invoke.args);
        return;
      }
    }
    const expr = node as InExpr;
    if (kind === 'in' && expr.subquery) {
      walk(expr.left);
      if (options.nested) walk(expr.subquery);
      out.push(expr.subquery);
      return;
    }
    for (const value of Object.values(node)) if (value !== null && typeof value === 'object') walk(value);
  };
  walk(root);
  return out;
}

/** Whether the query names datasets by pattern (and so needs the list of dataset names). */
export function hasDatasetPattern(query: Query): boolean {
  return datasetsOfQuery(query).some((name) => name.includes('*'));
}
