/**
 * The argument types of functions whose arguments have a fixed meaning (a number of digits, a datetime, a
 * predicate), checked when the query is planned so a wrong type is a 400 with the argument's position
 * rather than a silent null per row. Only what is unambiguous is listed: text arguments accept any scalar
 * (Kusto converts them with `tostring`), and `dynamic` arguments always pass because their type is known
 * only per row (a field whose type varies between events is `dynamic`).
 */
import type { AplType } from '../types';
import {
  DATETIME_PART_FUNCTIONS,
  PERIOD_BOUNDARY_FUNCTIONS,
  REAL_MATH_FUNCTIONS,
  UNIT_CONVERSION_FUNCTIONS,
  UNIXTIME_TO_DATETIME_FUNCTIONS,
} from './function-families';

/** The types an argument accepts, with the words used in the error message. */
interface Accepts {
  types: readonly AplType[];
  expected: string;
}

const accepts = (expected: string, ...types: AplType[]): Accepts => ({ types, expected });

const NUM = accepts('a number', 'long', 'real');
const BOOL = accepts('bool', 'bool');
const DT = accepts('a datetime', 'datetime');
const SPAN = accepts('a timespan', 'timespan');
const NUM_SPAN = accepts('a number or timespan', 'long', 'real', 'timespan');
const NUM_SPAN_DT = accepts('a number, timespan or datetime', 'long', 'real', 'timespan', 'datetime');
/** An array: only `dynamic` passes (it always does, see check()). */
const ARRAY = accepts('a dynamic array');
/** A GeoJSON shape: a dynamic value, or its JSON text (geo_* read both). */
const SHAPE = accepts('a GeoJSON dynamic value', 'string');
/** Positions after the listed ones accept anything. */
type Params = (Accepts | null)[];

const SCALAR: Record<string, Params> = {
  iff: [BOOL],
  not: [BOOL],
  round: [NUM, NUM],
  ceiling: [NUM],
  sign: [NUM],
  abs: [NUM_SPAN],
  floor: [NUM_SPAN_DT, NUM_SPAN],
  bin: [NUM_SPAN_DT, NUM_SPAN],
  bin_auto: [DT],
  pow: [NUM, NUM],
  atan2: [NUM, NUM],
  rand: [NUM],
  now: [SPAN],
  ago: [SPAN],
  substring: [null, NUM, NUM],
  split: [null, null, NUM],
  indexof: [null, null, NUM, NUM, NUM],
  indexof_regex: [null, null, NUM, NUM, NUM],
  strrep: [null, NUM],
  extract: [null, NUM],
  tohex: [NUM, NUM],
  format_bytes: [NUM, NUM, null, NUM],
  parse_bytes: [null, NUM],
  datetime_add: [null, NUM, DT],
  datetime_diff: [null, DT, DT],
  datetime_part: [null, DT],
  array_slice: [null, NUM, NUM],
  array_index_of: [null, null, NUM, NUM, NUM],
  array_rotate_left: [null, NUM],
  array_rotate_right: [null, NUM],
  array_shift_left: [null, NUM],
  array_shift_right: [null, NUM],
  parse_ipv4_mask: [null, NUM],
  format_ipv4_mask: [null, NUM],
  ipv4_compare: [null, null, NUM],
  ipv4_is_match: [null, null, NUM],
  ipv6_compare: [null, null, NUM],
  ipv6_is_match: [null, null, NUM],
  genai_get_content_by_index: [null, NUM],
  genai_get_role: [null, NUM],
  series_stats_dynamic: [null, BOOL],
  // Kusto function extensions (docs/apl.md "Kusto function extensions")
  format_datetime: [DT],
  make_datetime: [NUM, NUM, NUM, NUM, NUM, NUM],
  format_timespan: [SPAN],
  make_timespan: [NUM, NUM, NUM, NUM],
  datetime_utc_to_local: [DT],
  datetime_local_to_utc: [DT],
  binary_and: [NUM, NUM],
  binary_or: [NUM, NUM],
  binary_xor: [NUM, NUM],
  binary_not: [NUM],
  binary_shift_left: [NUM, NUM],
  binary_shift_right: [NUM, NUM],
  bitset_count_ones: [NUM],
  jaccard_index: [ARRAY, ARRAY],
  bin_at: [NUM_SPAN_DT, NUM_SPAN, NUM_SPAN_DT],
  geo_distance_2points: [NUM, NUM, NUM, NUM, BOOL],
  geo_distance_point_to_line: [NUM, NUM, SHAPE],
  geo_distance_point_to_polygon: [NUM, NUM, SHAPE],
  geo_point_in_circle: [NUM, NUM, NUM, NUM, NUM],
  geo_point_in_polygon: [NUM, NUM, SHAPE],
  geo_polygon_area: [SHAPE],
  geo_polygon_perimeter: [SHAPE],
  geo_polygon_centroid: [SHAPE],
  geo_polygon_densify: [SHAPE, NUM, BOOL],
  geo_line_length: [SHAPE],
  geo_line_centroid: [SHAPE],
  geo_line_densify: [SHAPE, NUM, BOOL],
  geo_line_interpolate_point: [SHAPE, NUM],
  geo_line_locate_point: [SHAPE, NUM, NUM, BOOL],
  geo_intersects_2lines: [SHAPE, SHAPE],
  geo_intersects_line_with_polygon: [SHAPE, SHAPE],
  geo_intersects_2polygons: [SHAPE, SHAPE],
  geo_point_buffer: [NUM, NUM, NUM, NUM],
  geo_line_buffer: [SHAPE, NUM, NUM],
  geo_polygon_buffer: [SHAPE, NUM, NUM],
  geo_line_simplify: [SHAPE, NUM],
  geo_polygon_simplify: [SHAPE, NUM],
  geo_simplify_polygons_array: [ARRAY, NUM],
  geo_union_polygons_array: [ARRAY],
  geo_intersection_2polygons: [SHAPE, SHAPE],
  geo_intersection_2lines: [SHAPE, SHAPE],
  geo_union_lines_array: [ARRAY],
  geo_polygon_to_h3cells: [SHAPE, NUM, NUM],
  geo_polygon_to_s2cells: [SHAPE, NUM, NUM],
  geo_line_to_s2cells: [SHAPE, NUM, NUM],
  geo_intersection_line_with_polygon: [SHAPE, SHAPE],
  geo_closest_point_on_line: [NUM, NUM, SHAPE],
  geo_closest_point_on_polygon: [NUM, NUM, SHAPE],
  geo_point_to_geohash: [NUM, NUM, NUM],
  geo_point_to_s2cell: [NUM, NUM, NUM],
  geo_point_to_h3cell: [NUM, NUM, NUM],
  geo_h3cell_parent: [null, NUM],
  geo_h3cell_children: [null, NUM],
  geo_h3cell_rings: [null, NUM],
  geo_azimuth: [NUM, NUM, NUM, NUM],
  geo_angle: [NUM, NUM, NUM, NUM, NUM, NUM],
  has_any_index: [null, ARRAY],
  replace_strings: [null, ARRAY, ARRAY],
};
for (const n of [...REAL_MATH_FUNCTIONS, 'cot']) SCALAR[n] = [NUM];
for (const n of PERIOD_BOUNDARY_FUNCTIONS) SCALAR[n] = [DT, NUM];
for (const n of DATETIME_PART_FUNCTIONS) SCALAR[n] = [DT];
for (const n of UNIXTIME_TO_DATETIME_FUNCTIONS) SCALAR[n] = [NUM];
for (const n of UNIT_CONVERSION_FUNCTIONS) SCALAR[n] = [NUM];

const AGGREGATE: Record<string, Params> = {
  countif: [BOOL],
  sum: [NUM_SPAN],
  sumif: [NUM_SPAN, BOOL],
  avg: [NUM_SPAN_DT],
  avgif: [NUM_SPAN_DT, BOOL],
  minif: [null, BOOL],
  maxif: [null, BOOL],
  dcount: [null, NUM],
  dcountif: [null, BOOL, NUM],
  percentile: [NUM_SPAN_DT, NUM],
  percentileif: [NUM_SPAN_DT, NUM, BOOL],
  percentiles_array: [NUM_SPAN_DT],
  percentiles_arrayif: [NUM_SPAN_DT, null, BOOL],
  stdev: [NUM],
  stdevif: [NUM, BOOL],
  variance: [NUM],
  varianceif: [NUM, BOOL],
  make_list: [null, NUM],
  make_list_if: [null, BOOL, NUM],
  make_set: [null, NUM],
  make_set_if: [null, BOOL, NUM],
  topk: [null, NUM],
  topkif: [null, NUM, BOOL],
  histogram: [NUM_SPAN_DT, NUM],
  histogramif: [NUM_SPAN_DT, NUM, BOOL],
  rate: [NUM],
  phrases: [null, NUM],
  make_bag: [null, NUM],
  make_bag_if: [null, BOOL, NUM],
  take_anyif: [null, BOOL],
  anyif: [null, BOOL],
  stdevp: [NUM],
  stdevpif: [NUM, BOOL],
  variancep: [NUM],
  variancepif: [NUM, BOOL],
  percentiles: [NUM_SPAN_DT],
  percentilew: [NUM_SPAN_DT, NUM, NUM],
  percentilesw: [NUM_SPAN_DT, NUM],
  percentilesw_array: [NUM_SPAN_DT, NUM],
  hll: [null, NUM],
  hll_if: [null, BOOL, NUM],
  hll_merge: [null, NUM],
  tdigest: [NUM_SPAN_DT, NUM],
};

/** `case(p1, v1, p2, v2, …, else)`: the predicates are the even positions before the last. */
function caseParam(index: number, count: number): Accepts | null {
  return index % 2 === 0 && index < count - 1 ? BOOL : null;
}

export interface ArgumentTypeError {
  /** 0-based position of the argument. */
  index: number;
  expected: string;
  got: AplType;
}

function check(
  types: readonly AplType[],
  param: (index: number) => Accepts | null,
): ArgumentTypeError | null {
  for (let i = 0; i < types.length; i++) {
    const p = param(i);
    if (p === null || types[i] === 'dynamic' || p.types.includes(types[i])) continue;
    return { index: i, expected: p.expected, got: types[i] };
  }
  return null;
}

/** The first argument of a scalar function call whose static type the function cannot take. */
export function scalarArgumentError(fn: string, types: readonly AplType[]): ArgumentTypeError | null {
  if (fn === 'case') return check(types, (i) => caseParam(i, types.length));
  if (fn === 'zip') return check(types, () => ARRAY);
  const params = SCALAR[fn];
  if (params === undefined) return null;
  const bad = check(types, (i) => params[i] ?? null);
  if (bad) return bad;
  // `bin(datetime, size)` needs a timespan size: a number would be read as milliseconds.
  if ((fn === 'bin' || fn === 'floor') && types.length === 2 && types[0] === 'datetime') {
    if (types[1] !== 'timespan' && types[1] !== 'dynamic')
      return { index: 1, expected: 'a timespan', got: types[1] };
  }
  if (fn === 'bin_at') return binAtError(types);
  return null;
}

/**
 * `bin_at(value, size, fixed_point)`: a datetime or timespan value needs a timespan size, and the fixed
 * point is of the value's own type (Kusto's page); otherwise every row would be null.
 */
function binAtError(types: readonly AplType[]): ArgumentTypeError | null {
  const [value, size, fixed] = types;
  if (value !== 'datetime' && value !== 'timespan') return null;
  if (size !== undefined && size !== 'timespan' && size !== 'dynamic')
    return { index: 1, expected: 'a timespan', got: size };
  if (fixed !== undefined && fixed !== value && fixed !== 'dynamic')
    return { index: 2, expected: value === 'datetime' ? 'a datetime' : 'a timespan', got: fixed };
  return null;
}

/** The first argument of an aggregation call (predicate included, in written order) of a wrong type. */
export function aggregateArgumentError(fn: string, types: readonly AplType[]): ArgumentTypeError | null {
  const params = AGGREGATE[fn];
  if (params === undefined) return null;
  // percentiles_array(x, p1, p2, …): every rank a number (or one dynamic array of them).
  if (fn === 'percentiles_array') return check(types, (i) => (i === 0 ? NUM_SPAN_DT : NUM));
  return check(types, (i) => params[i] ?? null);
}
