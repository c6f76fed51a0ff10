import { SERVER_AGGREGATIONS, SERVER_SCALAR_FUNCTIONS } from './apl-function-names';

/**
 * The words of APL the editor highlights and completes. Copied from the server's parser tables
 * (libs/apl): the console talks to the server only over HTTP and never imports its code. The function
 * names come from apl-function-names.ts, generated from the planner's tables (a test checks it is
 * current); the short lists below only put the common ones first.
 */
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
  // Kusto operators Quarry accepts as extensions (docs/apl.md §8).
  'as',
  'mv-apply',
  'top-nested',
  'top-hitters',
  'sample-distinct',
  'find',
  'project-smart',
] as const;

/** Words inside an operator's arguments: `by`, `asc`, string operators, `and`/`or`, ... */
export const KEYWORDS = [
  'by',
  'asc',
  'desc',
  'nulls',
  'first',
  'last',
  'and',
  'or',
  'not',
  'in',
  '!in',
  'in~',
  'between',
  '!between',
  'contains',
  '!contains',
  'contains_cs',
  'has',
  '!has',
  'has_cs',
  'startswith',
  '!startswith',
  'endswith',
  '!endswith',
  'hasprefix',
  'hassuffix',
  'matches',
  'regex',
  'on',
  'kind',
  'with',
  'let',
  'declare',
  'query_parameters',
  'datatable',
  'true',
  'false',
  'null',
] as const;

const COMMON_AGGREGATIONS = [
  'count',
  'countif',
  'dcount',
  'dcountif',
  'sum',
  'sumif',
  'avg',
  'avgif',
  'min',
  'minif',
  'max',
  'maxif',
  'percentile',
  'percentiles_array',
  'stdev',
  'variance',
  'make_list',
  'make_set',
  'arg_min',
  'arg_max',
  'topk',
  'histogram',
  'rate',
] as const;

const COMMON_SCALAR_FUNCTIONS = [
  'bin',
  'bin_auto',
  'ago',
  'now',
  'datetime',
  'todatetime',
  'tostring',
  'toint',
  'tolong',
  'toreal',
  'todouble',
  'tobool',
  'totimespan',
  'strlen',
  'strcat',
  'substring',
  'split',
  'tolower',
  'toupper',
  'trim',
  'replace_string',
  'replace_regex',
  'extract',
  'indexof',
  'isnull',
  'isnotnull',
  'isempty',
  'isnotempty',
  'iff',
  'case',
  'coalesce',
  'abs',
  'round',
  'floor',
  'ceiling',
  'log',
  'log10',
  'exp',
  'pow',
  'sqrt',
  'format_datetime',
  'startofday',
  'startofweek',
  'startofmonth',
  'datetime_part',
  'parse_json',
  'array_length',
  'pack',
  'bag_keys',
  'hash',
  'geo_distance_2points',
] as const;

/** Every aggregation, the common ones first. */
export const AGGREGATIONS: readonly string[] = [...new Set([...COMMON_AGGREGATIONS, ...SERVER_AGGREGATIONS])];
/** Every scalar function, the common ones first. */
export const SCALAR_FUNCTIONS: readonly string[] = [
  ...new Set([...COMMON_SCALAR_FUNCTIONS, ...SERVER_SCALAR_FUNCTIONS]),
];

export const FUNCTIONS: readonly string[] = [...new Set([...AGGREGATIONS, ...SCALAR_FUNCTIONS])];

const OPERATOR_SET = new Set<string>(TABULAR_OPERATORS);
const KEYWORD_SET = new Set<string>(KEYWORDS);
const FUNCTION_SET = new Set<string>(FUNCTIONS);

export const isTabularOperator = (word: string): boolean => OPERATOR_SET.has(word);
export const isKeyword = (word: string): boolean => KEYWORD_SET.has(word);
export const isFunction = (word: string): boolean => FUNCTION_SET.has(word);
