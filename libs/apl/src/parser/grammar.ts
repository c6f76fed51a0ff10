/** The words and types of APL's grammar the parser (and the console's completion) share. */
import type { AplType } from '../ast';

export const TABULAR_OPERATORS = [
  'where',
  'filter',
  'extend',
  'project',
  'project-away',
  'project-keep',
  'project-reorder',
  'project-rename',
  'summarize',
  'count',
  'take',
  'limit',
  'sort',
  'order',
  'top',
  'distinct',
  'getschema',
  'mv-expand',
  'parse',
  'parse-where',
  'join',
  'lookup',
  'union',
  'search',
  'sample',
  'make-series',
  'extend-valid',
  'parse-kv',
  'redact',
  'serialize',
  'as',
  'sample-distinct',
  'top-hitters',
  'mv-apply',
  'top-nested',
];

/** Word operators at comparison level that take a single right operand. */
export const STRING_OPERATORS = new Set([
  'contains',
  '!contains',
  'contains_cs',
  '!contains_cs',
  'has',
  '!has',
  'has_cs',
  '!has_cs',
  'startswith',
  '!startswith',
  'startswith_cs',
  '!startswith_cs',
  'endswith',
  '!endswith',
  'endswith_cs',
  '!endswith_cs',
  'hasprefix',
  '!hasprefix',
  'hasprefix_cs',
  '!hasprefix_cs',
  'hassuffix',
  '!hassuffix',
  'hassuffix_cs',
  '!hassuffix_cs',
]);

export const LIST_OPERATORS = new Set([
  'in',
  '!in',
  'in~',
  '!in~',
  'has_any',
  'has_all',
  'has_any_cs',
  'has_all_cs',
]);
export const COMPARISON_PUNCT = new Set(['==', '!=', '<>', '<', '<=', '>', '>=', '=~', '!~']);

/** Words that may follow an expression; a misspelled one left over after an expression gets a hint. */
export const WORDS_AFTER_EXPR = [
  'and',
  'or',
  'by',
  'desc',
  'asc',
  'nulls',
  'on',
  'with',
  'between',
  'matches',
  ...STRING_OPERATORS,
  ...LIST_OPERATORS,
];

/** Deepest nesting of parentheses, subqueries, unary signs and dynamic literals the parser accepts. */
export const MAX_NESTING = 200;
/** Longest chain of binary operators in one expression (the planner and evaluator recurse over it). */
export const MAX_OPERATOR_CHAIN = 1000;

export const TYPE_NAMES: Record<string, AplType> = {
  bool: 'bool',
  boolean: 'bool',
  int: 'long',
  long: 'long',
  real: 'real',
  double: 'real',
  decimal: 'real',
  string: 'string',
  datetime: 'datetime',
  date: 'datetime',
  timespan: 'timespan',
  time: 'timespan',
  dynamic: 'dynamic',
  // Kusto's guid: Quarry has no guid type, a guid is its text (`parse-kv ... as (id: guid)`).
  guid: 'string',
};

export const TYPE_NAME_LIST = Object.keys(TYPE_NAMES);

export function typeFromName(name: string): AplType | undefined {
  return Object.prototype.hasOwnProperty.call(TYPE_NAMES, name) ? TYPE_NAMES[name] : undefined;
}
