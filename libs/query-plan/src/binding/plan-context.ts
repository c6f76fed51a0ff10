/** What the binder is given (schemas, window, hooks) and what it returns. */
import type { Expr, TabularExpr } from '@quarry/apl';
import type { SourceSpan } from '@quarry/common';
import type { PlanNode } from '../nodes/plan-node';
import type { Field } from '../types';

export interface PlanContext {
  startMs: number;
  endMs: number;
  nowMs: number;
  /** Schema of a dataset (sorted, including `_time`/`_sysTime`); throws not_found for unknown datasets. */
  datasetSchema: (name: string, span: SourceSpan) => Field[];
  /** When true, unknown fields are typed `dynamic` instead of rejected (static validation without schemas). */
  lenientFields?: boolean;
  /**
   * Checks a constant regular expression with the engine that will run it (RE2 in query-exec): returns
   * why it does not compile, or null. Lets the planner reject a bad pattern with its span before execution.
   */
  checkRegex?: (pattern: string) => string | null;
  defaultLimit?: number;
  /**
   * Virtual fields of a dataset (already parsed by the caller, or the reason they do not parse). Each
   * behaves as `| extend name = expr` right after the dataset's scan; a stored field of the same name wins.
   */
  virtualFields?: (dataset: string) => ReadonlyArray<VirtualFieldDefinition>;
  /**
   * The values of `x in (T | ...)` and `toscalar(T)` subqueries: the first column's distinct non-null
   * values of `plan` (T as bound where it appears, so inside a user-defined function with that call's
   * arguments). Undefined when the caller has not run that plan yet: the binder then uses an empty
   * list, and the caller runs the plan and binds again (runApl). Absent: empty lists, enough for static
   * validation and explain.
   */
  subqueryValues?: (subquery: TabularExpr, plan: PlanNode) => unknown[] | undefined;
  /**
   * The rows of a `materialize(T)` plan already run (a values node), or undefined: the binder then uses
   * the plan itself and lists it in `BuiltPlan.reusedMaterialized` when it is used more than once; the
   * caller runs it once and binds again (runApl). Absent: every use runs T (validation, explain).
   */
  materialized?: (plan: PlanNode) => PlanNode | undefined;
  /** Every dataset name, for patterns such as `union logs*` (absent: patterns match nothing). */
  datasetNames?: readonly string[];
}

/** A virtual field as the binder receives it: its parsed expression, or why its text does not parse. */
export type VirtualFieldDefinition = { name: string; expr: Expr } | { name: string; error: string };

export interface BuiltPlan {
  root: PlanNode;
  datasets: string[];
  /** The final table is the result of an aggregation. */
  aggregated: boolean;
  /** `materialize(T)` plans (not raw event streams) used more than once, not yet run (see PlanContext). */
  reusedMaterialized: PlanNode[];
}
