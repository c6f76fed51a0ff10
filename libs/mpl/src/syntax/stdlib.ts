/** MPL standard library names per context (mpl.md §2.4), used by the parser and for did-you-mean. */

/** Map functions and whether they take one numeric argument. */
export const MAP_FUNCTIONS: Readonly<Record<string, boolean>> = {
  rate: false,
  increase: false,
  abs: false,
  min: true,
  max: true,
  'fill::prev': false,
  'fill::const': true,
  'interpolate::linear': false,
  'filter::lt': true,
  'filter::gt': true,
  'filter::lte': true,
  'filter::gte': true,
  'filter::eq': true,
  'filter::neq': true,
  'is::lt': true,
  'is::gt': true,
  'is::lte': true,
  'is::gte': true,
  'is::eq': true,
  'is::neq': true,
};

export const ALIGN_FUNCTIONS = ['avg', 'sum', 'min', 'max', 'count', 'last', 'prom::rate'] as const;
export type AlignFunction = (typeof ALIGN_FUNCTIONS)[number];

export const GROUP_FUNCTIONS = ['avg', 'sum', 'min', 'max', 'count'] as const;
export type GroupFunction = (typeof GROUP_FUNCTIONS)[number];

export const COMPUTE_FUNCTIONS = ['min', 'max', 'avg'] as const;

export const BUCKET_FUNCTIONS = [
  'histogram',
  'interpolate_delta_histogram',
  'interpolate_cumulative_histogram',
] as const;

export const PARAM_TYPES = ['Dataset', 'Duration', 'Regex', 'string', 'int', 'float', 'bool'] as const;
