/** The MPL syntax tree. Every node that can be wrong at compile or run time keeps its source span. */
import type { SourceSpan } from '@quarry/common';

export type ParamType = 'Dataset' | 'Duration' | 'Regex' | 'string' | 'int' | 'float' | 'bool';

export interface ParamRef {
  kind: 'param';
  name: string;
  span: SourceSpan;
}

export interface Directive {
  name: string;
  value?: Literal | { kind: 'ident'; name: string };
  span: SourceSpan;
}

export interface ParamDecl {
  name: string;
  type: ParamType;
  span: SourceSpan;
}

export type Literal =
  | { kind: 'string'; value: string }
  | { kind: 'int'; value: number }
  | { kind: 'float'; value: number }
  | { kind: 'bool'; value: boolean };

export interface MplFile {
  directives: Directive[];
  params: ParamDecl[];
  query: Query;
}

export type Query = SimpleQuery | ComputeQuery;

/** A window length: literal seconds or a `$param` of type Duration. */
export type DurationRef = { kind: 'seconds'; seconds: number; span: SourceSpan } | ParamRef;

/** A point of a source time range (mpl.md §2.1 "Time points"). */
export type TimePoint =
  | { kind: 'ago'; seconds: number } // relative duration: now minus it
  | { kind: 'unix'; seconds: number }
  | { kind: 'modifier'; seconds: number }; // `+dur` / `-dur` applied to the other end

export interface SourceNode {
  dataset: { kind: 'name'; name: string; span: SourceSpan } | ParamRef;
  metric: string;
  range?: { start: TimePoint; end?: TimePoint; span: SourceSpan };
  alias?: string;
  span: SourceSpan;
}

export type FilterValue = Literal | ParamRef;

export type FilterExpr =
  | { kind: 'or'; items: FilterExpr[] }
  | { kind: 'and'; items: FilterExpr[] }
  | { kind: 'not'; item: FilterExpr }
  | {
      kind: 'cmp';
      tag: string;
      op: '==' | '!=' | '<' | '<=' | '>' | '>=';
      value: FilterValue;
      span: SourceSpan;
    }
  | {
      kind: 'regex';
      tag: string;
      negate: boolean;
      /** The body with MPL's escapes decoded, as the regex engine gets it. */
      pattern: string;
      /** The body as written, and the span of the whole `#/…/` literal (to point into it on errors). */
      raw: string;
      patternSpan: SourceSpan;
      span: SourceSpan;
    }
  | { kind: 'is'; tag: string; type: 'string' | 'int' | 'float' | 'bool'; span: SourceSpan };

/** A `where` clause; `ifdef` makes it conditional on a supplied param. */
export interface WhereClause {
  expr: FilterExpr;
  ifdef?: ParamRef;
}

export interface SimpleQuery {
  kind: 'simple';
  source: SourceNode;
  sample?: number;
  filters: WhereClause[];
  pipes: Pipe[];
  span: SourceSpan;
}

export type ComputeOp = '+' | '-' | '*' | '/' | 'min' | 'max' | 'avg';

export interface ComputeQuery {
  kind: 'compute';
  left: Query;
  right: Query;
  name: string;
  op: ComputeOp;
  pipes: Pipe[];
  span: SourceSpan;
}

export type MapArithmetic = '+' | '-' | '*' | '/';

export type Pipe =
  | { kind: 'map'; op: MapArithmetic; operand: number; span: SourceSpan }
  | { kind: 'map'; op: 'func'; name: string; arg?: number; span: SourceSpan }
  | { kind: 'align'; window?: DurationRef; using: string; span: SourceSpan }
  | { kind: 'group'; by?: string[]; using: string; span: SourceSpan }
  | { kind: 'bucket'; by?: string[]; window?: DurationRef; call: BucketCall; span: SourceSpan }
  | { kind: 'as'; name: string; span: SourceSpan }
  | { kind: 'extend'; tags: { name: string; value: Literal }[]; span: SourceSpan };

export type BucketSpec = { kind: 'quantile'; q: number } | { kind: 'count' | 'sum' | 'avg' | 'min' | 'max' };

export interface BucketCall {
  fn: 'histogram' | 'interpolate_delta_histogram' | 'interpolate_cumulative_histogram';
  mode?: 'rate' | 'increase';
  specs: BucketSpec[];
  span: SourceSpan;
}
