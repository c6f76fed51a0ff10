/**
 * Logical plan nodes. Each node knows its output schema (ordered fields). Nodes are immutable values;
 * optimizer rules build new trees.
 */
import type { AplType, ParsePart } from '@quarry/apl';
import type { ColumnBatch } from '@quarry/contracts';
import type { PExpr } from '../expr';
import type { Field } from '../types';

export interface NamedExpr {
  name: string;
  expr: PExpr;
}

export interface SortKeySpec {
  expr: PExpr;
  desc: boolean;
  nullsFirst: boolean;
}

export interface AggregateCall {
  fn: string;
  args: PExpr[];
  /** The `*if` predicate, separated from the value arguments. */
  predicate: PExpr | null;
  /** Output columns: one for most aggregates, several for `arg_max(expr, c1, c2)`. */
  outputs: Field[];
  /** Constant arguments (percentile ranks, dcount accuracy, list caps). */
  params: unknown[];
  /** `rate`: the period one group covers (bucket size of a `bin(_time, …)` key, else the query window). */
  periodMs?: number;
}

/** Reads a dataset: rows with `startMs <= _time < endMs`, optionally only some columns and a filter. */
export interface ScanNode {
  kind: 'scan';
  dataset: string;
  schema: Field[];
  startMs: number;
  endMs: number;
  /** Columns to read; null = all. */
  columns: string[] | null;
  /** Predicate evaluated inside the scan (after filter pushdown). */
  filter: PExpr | null;
}

/** Inline rows (`datatable`, `print`, `getschema`), or the rows of a `materialize(T)` computed once. */
export interface ValuesNode {
  kind: 'values';
  schema: Field[];
  rows: PExpr[][];
  /** A materialized table: its rows (`rows` is empty) and what the plan it replaces was. */
  materialized?: MaterializedRows;
}

/** The result of a `materialize(T)` plan, run once before the query (runApl). */
export interface MaterializedRows {
  /** The replaced plan as JSON: tells two materialized tables apart in plan keys. */
  key: string;
  batch: ColumnBatch;
  /** The replaced plan was an aggregation (result conventions and `aggregated` follow it). */
  aggregated: boolean;
  /** The replaced plan's rows were serialized (window functions may follow). */
  serialized: boolean;
}

export interface FilterNode {
  kind: 'filter';
  input: PlanNode;
  predicate: PExpr;
  schema: Field[];
}

export interface ExtendNode {
  kind: 'extend';
  input: PlanNode;
  items: NamedExpr[];
  schema: Field[];
  /** The dataset's virtual fields: items no operator above reads are dropped by projection pushdown. */
  virtual?: true;
  /**
   * Window functions (`prev`, `row_number`, ...): each item is one window call over every input row in
   * order. Not row-wise: filters stay above it, and its input is serialized (see `isSerialized`).
   */
  window?: true;
}

export interface ProjectNode {
  kind: 'project';
  input: PlanNode;
  items: NamedExpr[];
  schema: Field[];
}

export interface AggregateNode {
  kind: 'aggregate';
  input: PlanNode;
  keys: NamedExpr[];
  aggs: AggregateCall[];
  schema: Field[];
  /** Set when the first key bins `_time`: bucket size in ms. */
  timeBucketMs?: number;
}

export interface SortNode {
  kind: 'sort';
  input: PlanNode;
  keys: SortKeySpec[];
  schema: Field[];
}

export interface LimitNode {
  kind: 'limit';
  input: PlanNode;
  count: number;
  schema: Field[];
  /** Added by the planner (default result cap), not written in the query. */
  implicit?: boolean;
  /**
   * `serialize` over an unordered input: every row (count is MAX_SAFE_INTEGER), read in scan order —
   * a take is never split out of order, so the window functions above see one well-defined order.
   */
  serialize?: true;
}

export interface TopNode {
  kind: 'top';
  input: PlanNode;
  count: number;
  keys: SortKeySpec[];
  schema: Field[];
  implicit?: boolean;
}

export interface MvExpandNode {
  kind: 'mv-expand';
  input: PlanNode;
  /** Expanded together: row j of an input row takes element j of each (null past its end). */
  items: { column: string; expr: PExpr; toType?: AplType }[];
  itemIndex?: string;
  limit?: number;
  /** How a bag entry is expanded: `{key: value}` (bag) or `[key, value]` (array). */
  bagExpansion: 'bag' | 'array';
  schema: Field[];
}

/** How `parse-kv` finds pairs: both delimiters, neither (any non-alphanumeric separates), or a regex. */
export interface ParseKvOptions {
  pairDelimiter?: string;
  kvDelimiter?: string;
  /** Quote characters: one (the same on both sides) or two (opening, closing); '' for none. */
  quote: string;
  /** Escape character inside quotes; '' for none. */
  escape: string;
  greedy: boolean;
  /** Two groups: the key and the value. */
  regex?: string;
}

export interface ParseNode {
  kind: 'parse';
  input: PlanNode;
  source: PExpr;
  /** For `kv`: one capture per listed key. */
  parts: ParsePart[];
  /** `kv`: parse-kv, the captures are the values of the keys of the same name (`kv` options). */
  mode: 'simple' | 'relaxed' | 'regex' | 'kv';
  kv?: ParseKvOptions;
  /** RE2 flags of kind=regex (`i`, `m`, `s`, `U`), applied to the whole pattern. */
  flags?: string;
  dropUnmatched: boolean;
  schema: Field[];
}

export interface JoinNode {
  kind: 'join';
  left: PlanNode;
  right: PlanNode;
  joinKind: string;
  on: { left: string; right: string }[];
  /** Output name of each right column that is kept (null = dropped, e.g. lookup keys). */
  rightNames: (string | null)[];
  schema: Field[];
}

export interface UnionNode {
  kind: 'union';
  inputs: PlanNode[];
  /** Source names, for `withsource=`. */
  sourceNames: string[];
  withSource?: string;
  schema: Field[];
}

/**
 * `make-series`: aggregates per group and time bucket, then pivots each aggregate into an array with one
 * element per bucket of `[startMs, endMs)` (missing buckets take the default). `startMs`/`endMs` null
 * means "from the data". Output: keys, one array per aggregate, then the bucket timestamps array.
 */
export interface MakeSeriesNode {
  kind: 'make-series';
  input: PlanNode;
  keys: NamedExpr[];
  aggs: AggregateCall[];
  defaults: unknown[];
  time: PExpr;
  timeName: string;
  stepMs: number;
  startMs: number | null;
  endMs: number | null;
  /** `kind=nonempty`: an empty input gives one row of default series (`by` keys null). */
  nonempty?: true;
  schema: Field[];
}

export type PlanNode =
  | ScanNode
  | ValuesNode
  | FilterNode
  | ExtendNode
  | ProjectNode
  | AggregateNode
  | SortNode
  | LimitNode
  | TopNode
  | MvExpandNode
  | ParseNode
  | JoinNode
  | UnionNode
  | MakeSeriesNode;

/** The inputs of a node, in order. */
export function childrenOf(node: PlanNode): PlanNode[] {
  switch (node.kind) {
    case 'scan':
    case 'values':
      return [];
    case 'join':
      return [node.left, node.right];
    case 'union':
      return node.inputs;
    default:
      return [node.input];
  }
}

/** Rebuilds a node with new inputs (same order as `childrenOf`). */
export function withChildren(node: PlanNode, children: PlanNode[]): PlanNode {
  switch (node.kind) {
    case 'scan':
    case 'values':
      return node;
    case 'join':
      return { ...node, left: children[0], right: children[1] };
    case 'union':
      return { ...node, inputs: children };
    default:
      return { ...node, input: children[0] } as PlanNode;
  }
}

/** The join input whose rows a join's output follows: the right side for `rightsemi`/`rightanti`. */
export function joinRowSource(node: JoinNode): PlanNode {
  return node.joinKind === 'rightsemi' || node.joinKind === 'rightanti' ? node.right : node.left;
}

export function hasField(schema: Field[], name: string): boolean {
  return schema.some((f) => f.name === name);
}

/**
 * Whether a node's rows come in a defined order that window functions may use (Kusto's serialized row
 * set): the output of sort, top, `serialize` or inline rows, through operators that keep the order.
 */
export function isSerialized(node: PlanNode): boolean {
  let n: PlanNode = node;
  for (;;) {
    switch (n.kind) {
      case 'sort':
      case 'top':
        return true;
      case 'values':
        return n.materialized ? n.materialized.serialized : true;
      case 'limit':
        if (n.serialize) return true;
        n = n.input;
        break;
      case 'filter':
      case 'extend':
      case 'project':
      case 'mv-expand':
      case 'parse':
        n = n.input;
        break;
      default:
        return false;
    }
  }
}
