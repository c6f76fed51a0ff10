/**
 * Signatures of the scalar functions the planner accepts: arity and result type. Implementations live in
 * query-exec, keyed by the same names; a test there checks that every signature has an implementation.
 */
import type { AplType } from '../types';
import { isNumericType, unifyTypes } from '../types';
import {
  DATETIME_PART_FUNCTIONS,
  PERIOD_BOUNDARY_FUNCTIONS,
  REAL_MATH_FUNCTIONS,
  UNIT_CONVERSION_FUNCTIONS,
  UNIXTIME_TO_DATETIME_FUNCTIONS,
} from './function-families';

export interface ScalarSignature {
  name: string;
  minArgs: number;
  maxArgs: number;
  returns: (args: AplType[]) => AplType;
  /** Names another function (`iif` → `iff`). */
  aliasOf?: string;
}

const fixed = (t: AplType) => () => t;
const sameAsFirst = (args: AplType[]): AplType => args[0] ?? 'dynamic';
const numericOfFirst = (args: AplType[]): AplType =>
  args[0] === 'long' ? 'long' : isNumericType(args[0]) ? args[0] : args[0] === 'dynamic' ? 'dynamic' : 'real';
const unifyAll = (args: AplType[]): AplType => args.reduce((a, b) => unifyTypes(a, b));
const unifyFrom =
  (indexes: (n: number) => number[]) =>
  (args: AplType[]): AplType => {
    const picked = indexes(args.length).map((i) => args[i]);
    // Typed nulls (`dynamic(null)`) are the usual null branch: ignore dynamic when another branch is typed.
    const typed = picked.filter((t) => t !== 'dynamic');
    return typed.length === 0 ? 'dynamic' : typed.reduce<AplType>((a, b) => unifyTypes(a, b), typed[0]);
  };

const MANY = 64;
const table: ScalarSignature[] = [];
function def(
  name: string,
  minArgs: number,
  maxArgs: number,
  returns: (args: AplType[]) => AplType,
  aliasOf?: string,
): void {
  table.push({ name, minArgs, maxArgs, returns, aliasOf });
}

// conditional
def(
  'iff',
  3,
  3,
  unifyFrom(() => [1, 2]),
);
def(
  'iif',
  3,
  3,
  unifyFrom(() => [1, 2]),
  'iff',
);
def(
  'case',
  3,
  MANY,
  unifyFrom((n) => [...Array.from({ length: (n - 1) / 2 }, (_, i) => 2 * i + 1), n - 1]),
);
def(
  'coalesce',
  1,
  MANY,
  unifyFrom((n) => Array.from({ length: n }, (_, i) => i)),
);
def('not', 1, 1, fixed('bool'));
// type tests and conversions
for (const n of [
  'isnull',
  'isnotnull',
  'isempty',
  'isnotempty',
  'isfinite',
  'isinf',
  'isnan',
  'isascii',
  'isutf8',
  'isarray',
  'isstring',
  'isbool',
  'isreal',
  'isint',
  'ismap',
])
  def(n, 1, 1, fixed('bool'));
def('tostring', 1, 1, fixed('string'));
def('toint', 1, 1, fixed('long'));
def('tolong', 1, 1, fixed('long'));
def('toreal', 1, 1, fixed('real'));
def('todouble', 1, 1, fixed('real'));
def('todecimal', 1, 1, fixed('real'));
def('todatetime', 1, 1, fixed('datetime'));
def('totimespan', 1, 1, fixed('timespan'));
def('totime', 1, 1, fixed('timespan'));
def('tobool', 1, 1, fixed('bool'));
def('toboolean', 1, 1, fixed('bool'));
def('todynamic', 1, 1, fixed('dynamic'));
def('parse_json', 1, 1, fixed('dynamic'));
def('toarray', 1, 1, fixed('dynamic'));
def('gettype', 1, 1, fixed('string'));
def('tohex', 1, 2, fixed('string'));
// strings
def('tolower', 1, 1, fixed('string'));
def('toupper', 1, 1, fixed('string'));
def('totitle', 1, 1, fixed('string'));
def('strcat', 1, MANY, fixed('string'));
def('strcat_delim', 2, MANY, fixed('string'));
def('strlen', 1, 1, fixed('long'));
def('string_size', 1, 1, fixed('long'));
def('substring', 2, 3, fixed('string'));
def('split', 2, 3, fixed('dynamic'));
def('replace_string', 3, 3, fixed('string'));
def('replace_regex', 3, 3, fixed('string'));
def('replace', 3, 3, fixed('string'), 'replace_regex');
def('extract', 3, 4, (a) => (a.length === 4 && a[3] !== 'dynamic' ? a[3] : 'string'));
def('extract_all', 2, 3, fixed('dynamic'));
def('indexof', 2, 5, fixed('long'));
def('countof', 2, 3, fixed('long'));
def('trim', 2, 2, fixed('string'));
def('trim_start', 2, 2, fixed('string'));
def('trim_end', 2, 2, fixed('string'));
def('trim_space', 1, 1, fixed('string'));
def('reverse', 1, 1, fixed('string'));
def('strrep', 2, 3, fixed('string'));
def('strcmp', 2, 2, fixed('long'));
def('url_encode', 1, 1, fixed('string'));
def('url_decode', 1, 1, fixed('string'));
def('base64_encode_tostring', 1, 1, fixed('string'));
def('base64_decode_tostring', 1, 1, fixed('string'));
def('parse_url', 1, 1, fixed('dynamic'));
def('strcat_array', 2, 2, fixed('string'));
def('quote', 1, 1, fixed('string'));
def('regex_quote', 1, 1, fixed('string'));
// math
def('round', 1, 2, numericOfFirst);
def('floor', 1, 2, sameAsFirst);
def('ceiling', 1, 1, numericOfFirst);
def('bin', 2, 2, sameAsFirst);
def('bin_auto', 1, 1, fixed('datetime'));
def('abs', 1, 1, sameAsFirst);
def('sign', 1, 1, numericOfFirst);
for (const n of REAL_MATH_FUNCTIONS) def(n, 1, 1, fixed('real'));
def('pow', 2, 2, fixed('real'));
def('atan2', 2, 2, fixed('real'));
def('pi', 0, 0, fixed('real'));
def('rand', 0, 1, (a) => (a.length ? 'long' : 'real'));
def('min_of', 1, MANY, unifyAll);
def('max_of', 1, MANY, unifyAll);
// datetime
def('now', 0, 1, fixed('datetime'));
def('ago', 1, 1, fixed('datetime'));
for (const n of PERIOD_BOUNDARY_FUNCTIONS) def(n, 1, 2, fixed('datetime'));
for (const n of DATETIME_PART_FUNCTIONS) def(n, 1, 1, fixed('long'));
def('datetime_add', 3, 3, fixed('datetime'));
def('datetime_diff', 3, 3, fixed('long'));
def('datetime_part', 2, 2, fixed('long'));
// Kusto extensions (query-exec kusto-datetime-functions.ts)
def('format_datetime', 2, 2, fixed('string'));
def('make_datetime', 3, 6, fixed('datetime'));
def('format_timespan', 2, 2, fixed('string'));
def('make_timespan', 2, 4, fixed('timespan'));
def('datetime_utc_to_local', 2, 2, fixed('datetime'));
def('datetime_local_to_utc', 2, 2, fixed('datetime'));
// Kusto extensions (query-exec math.ts: bitwise on 64-bit longs; dynamic.ts: bags and sets)
for (const n of ['binary_and', 'binary_or', 'binary_xor', 'binary_shift_left', 'binary_shift_right'])
  def(n, 2, 2, fixed('long'));
def('binary_not', 1, 1, fixed('long'));
def('bitset_count_ones', 1, 1, fixed('long'));
def('bag_merge', 2, MANY, fixed('dynamic'));
def('bag_remove_keys', 2, 2, fixed('dynamic'));
def('bag_set_key', 3, 3, fixed('dynamic'));
def('jaccard_index', 2, 2, fixed('real'));
for (const n of UNIXTIME_TO_DATETIME_FUNCTIONS) def(n, 1, 1, fixed('datetime'));
// dynamic
def('array_length', 1, 1, fixed('long'));
def('len', 1, 1, fixed('long'));
def('pack_array', 0, MANY, fixed('dynamic'));
def('bag_pack', 0, MANY, fixed('dynamic'));
def('pack', 0, MANY, fixed('dynamic'), 'bag_pack');
def('pack_dictionary', 0, MANY, fixed('dynamic'), 'bag_pack');
def('pack_all', 0, 1, fixed('dynamic'));
def('array_concat', 1, MANY, fixed('dynamic'));
def('array_reverse', 1, 1, fixed('dynamic'));
def('array_sort_asc', 1, MANY, fixed('dynamic'));
def('array_sort_desc', 1, MANY, fixed('dynamic'));
def('array_sum', 1, 1, fixed('real'));
def('array_slice', 3, 3, fixed('dynamic'));
def('array_index_of', 2, 5, fixed('long'));
def('set_union', 2, MANY, fixed('dynamic'));
def('set_intersect', 2, MANY, fixed('dynamic'));
def('set_difference', 2, MANY, fixed('dynamic'));
def('set_has_element', 2, 2, fixed('bool'));
def('bag_keys', 1, 1, fixed('dynamic'));
def('bag_has_key', 2, 2, fixed('bool'));
def('treepath', 1, 1, fixed('dynamic'));
// hashes and ips
for (const n of ['hash_md5', 'hash_sha1', 'hash_sha256', 'hash_sha512']) def(n, 1, 1, fixed('string'));
def('ipv4_is_private', 1, 1, fixed('bool'));
def('ipv4_is_in_range', 2, 2, fixed('bool'));
def('ipv4_is_in_any_range', 2, MANY, fixed('bool'));
def('parse_ipv4', 1, 1, fixed('long'));
def('format_ipv4', 1, 2, fixed('string'));
def('ingestion_time', 0, 0, fixed('datetime'));
def('dynamic_to_json', 1, 1, fixed('string'));
def('parse_urlquery', 1, 1, fixed('dynamic'));
def('parse_csv', 1, 1, fixed('dynamic'));
def('parse_path', 1, 1, fixed('dynamic'));
def('translate', 3, 3, fixed('string'));
def('trim_regex', 2, 2, fixed('string'));
def('trim_start_regex', 2, 2, fixed('string'));
def('trim_end_regex', 2, 2, fixed('string'));
def('countof_regex', 2, 2, fixed('long'));
def('indexof_regex', 2, 5, fixed('long'));
def('strip_ansi_escapes', 1, 1, fixed('string'));
def('unicode_codepoints_from_string', 1, 1, fixed('dynamic'));
def('unicode_codepoints_to_string', 1, MANY, fixed('string'));
def('parse_bytes', 1, 2, fixed('long'));
def('format_bytes', 1, 4, fixed('string'));
def('ensure_field', 2, 2, (a) => a[1] ?? 'dynamic');
def('array_rotate_left', 2, 2, fixed('dynamic'));
def('array_rotate_right', 2, 2, fixed('dynamic'));
def('array_shift_left', 2, 3, fixed('dynamic'));
def('array_shift_right', 2, 3, fixed('dynamic'));
def('array_split', 2, 2, fixed('dynamic'));
def('bag_zip', 2, 2, fixed('dynamic'));
def('ipv4_compare', 2, 3, fixed('long'));
def('ipv4_is_match', 2, 3, fixed('bool'));
def('ipv4_netmask_suffix', 1, 1, fixed('long'));
def('has_ipv4', 2, 2, fixed('bool'));
def('has_ipv4_prefix', 2, 2, fixed('bool'));
def('column_ifexists', 2, 2, (a) => a[1] ?? 'dynamic');
/** Functions defined from here on are offered as "did you mean" hints only after the aggregates. */
const firstRarelySuggested = table.length;
// Kusto's deprecated aliases, as its pages name them (queries pasted from Sentinel still use them).
def('to_utf8', 1, 1, fixed('dynamic'), 'unicode_codepoints_from_string');
def('make_string', 1, MANY, fixed('string'), 'unicode_codepoints_to_string');
def('parsejson', 1, 1, fixed('dynamic'), 'parse_json');
def('notempty', 1, 1, fixed('bool'), 'isnotempty');
def('notnull', 1, 1, fixed('bool'), 'isnotnull');
def('base64_encodestring', 1, 1, fixed('string'), 'base64_encode_tostring');
def('base64_decodestring', 1, 1, fixed('string'), 'base64_decode_tostring');
// more RARE functions (libs/query-exec more-rare-functions.ts)
def('hash', 1, 2, fixed('long'));
def('range', 2, 3, fixed('dynamic'));
def('cot', 1, 1, fixed('real'));
def('array_iff', 3, 3, fixed('dynamic'));
def('array_extract', 2, 2, fixed('dynamic'));
def('array_select_dict', 3, 3, fixed('dynamic'));
def('format_url', 1, 1, fixed('string'));
def('parse_ipv4_mask', 2, 2, fixed('long'));
def('format_ipv4_mask', 1, 2, fixed('string'));
def('has_any_ipv4', 2, MANY, fixed('bool'));
def('has_any_ipv4_prefix', 2, MANY, fixed('bool'));
def('ipv6_compare', 2, 3, fixed('long'));
def('ipv6_is_match', 2, 3, fixed('bool'));
def('ipv6_is_in_range', 2, 2, fixed('bool'));
def('ipv6_is_in_any_range', 2, MANY, fixed('bool'));
def('iscc', 1, 1, fixed('bool'));
def('isimei', 1, 1, fixed('bool'));
def('base64_encode_fromarray', 1, 1, fixed('string'));
def('base64_decode_toarray', 1, 1, fixed('dynamic'));
def('pair', 2, 3, fixed('dynamic'));
def('parse_pair', 1, 2, fixed('dynamic'));
def('find_pair', 3, 4, fixed('dynamic'));
// series_* (libs/query-exec series-functions.ts)
for (const n of [
  'abs',
  'acos',
  'asin',
  'atan',
  'ceiling',
  'cos',
  'exp',
  'floor',
  'log',
  'sign',
  'sin',
  'tan',
])
  def(`series_${n}`, 1, 1, fixed('dynamic'));
for (const n of ['pow', 'add', 'subtract', 'multiply', 'divide']) def(`series_${n}`, 2, 2, fixed('dynamic'));
for (const n of ['equals', 'not_equals', 'greater', 'greater_equals', 'less', 'less_equals'])
  def(`series_${n}`, 2, 2, fixed('dynamic'));
for (const n of ['max', 'min', 'sum', 'magnitude']) def(`series_${n}`, 1, 1, fixed('real'));
for (const n of ['dot_product', 'cosine_similarity', 'pearson_correlation'])
  def(`series_${n}`, 2, 2, fixed('real'));
def('series_stats_dynamic', 1, 2, fixed('dynamic'));
// `series_stats(x [, ignore_nonfinite])` in extend / project expands into seven columns (or as many as
// `(a, b) =` names: expression-binder); alone it is the bag.
def('series_stats', 1, 2, fixed('dynamic'));
// `series_fft(re [, im])` / `series_ifft(…)`: a bag {real, imag}, two columns in extend / project.
def('series_fft', 1, 2, fixed('dynamic'));
def('series_ifft', 1, 2, fixed('dynamic'));
def('series_fill_const', 2, 3, fixed('dynamic'));
def('series_fill_forward', 1, 2, fixed('dynamic'));
def('series_fill_backward', 1, 2, fixed('dynamic'));
def('series_fill_linear', 1, 4, fixed('dynamic'));
def('series_fir', 2, 4, fixed('dynamic'));
def('series_iir', 3, 3, fixed('dynamic'));
// genai_* (libs/query-exec genai-functions.ts)
def('genai_concat_contents', 1, 2, fixed('string'));
def('genai_extract_user_prompt', 1, 1, fixed('string'));
def('genai_extract_assistant_response', 1, 1, fixed('string'));
def('genai_extract_system_prompt', 1, 1, fixed('string'));
def('genai_get_content_by_index', 2, 2, fixed('string'));
def('genai_get_content_by_role', 2, 2, fixed('string'));
def('genai_get_role', 2, 2, fixed('string'));
def('genai_message_roles', 1, 1, fixed('dynamic'));
def('genai_has_tool_calls', 1, 1, fixed('bool'));
// Kusto function extensions (libs/query-exec binning.ts, array-zip.ts, zlib.ts, unit-conversion.ts, geo*.ts)
def('bin_at', 3, 3, sameAsFirst);
def('zip', 2, 16, fixed('dynamic'));
def('zlib_compress_to_base64_string', 1, 1, fixed('string'));
def('zlib_decompress_from_base64_string', 1, 1, fixed('string'));
def('gzip_compress_to_base64_string', 1, 1, fixed('string'));
def('gzip_decompress_from_base64_string', 1, 1, fixed('string'));
for (const n of UNIT_CONVERSION_FUNCTIONS) def(n, 3, 3, fixed('real'));
def('geo_distance_2points', 4, 5, fixed('real'));
// geo_info_from_ip_address (libs/query-exec geo-ip.ts): needs QUARRY_GEOIP_DATABASE, a MaxMind City .mmdb
def('geo_info_from_ip_address', 1, 1, fixed('dynamic'));
def('geo_distance_point_to_line', 3, 3, fixed('real'));
def('geo_point_in_circle', 5, 5, fixed('bool'));
def('geo_point_in_polygon', 3, 3, fixed('bool'));
def('geo_polygon_area', 1, 1, fixed('real'));
def('geo_polygon_perimeter', 1, 1, fixed('real'));
def('geo_polygon_centroid', 1, 1, fixed('dynamic'));
def('geo_point_to_geohash', 2, 3, fixed('string'));
def('geo_geohash_to_central_point', 1, 1, fixed('dynamic'));
def('geo_geohash_to_polygon', 1, 1, fixed('dynamic'));
def('geo_geohash_neighbors', 1, 1, fixed('dynamic'));
def('geo_point_to_s2cell', 2, 3, fixed('string'));
def('geo_s2cell_to_central_point', 1, 1, fixed('dynamic'));
def('geo_point_to_h3cell', 2, 3, fixed('string'));
def('geo_h3cell_to_central_point', 1, 1, fixed('dynamic'));
def('geo_h3cell_parent', 1, 2, fixed('string'));
def('geo_h3cell_level', 1, 1, fixed('long'));
def('geo_azimuth', 4, 4, fixed('real'));
def('geo_angle', 6, 6, fixed('real'));
def('geo_s2cell_to_polygon', 1, 1, fixed('dynamic'));
def('geo_s2cell_neighbors', 1, 1, fixed('dynamic'));
def('geo_h3cell_to_polygon', 1, 1, fixed('dynamic'));
def('geo_h3cell_children', 1, 2, fixed('dynamic'));
def('geo_h3cell_neighbors', 1, 1, fixed('dynamic'));
def('geo_h3cell_rings', 2, 2, fixed('dynamic'));
def('geo_line_length', 1, 1, fixed('real'));
def('geo_line_centroid', 1, 1, fixed('dynamic'));
def('geo_line_densify', 1, 3, fixed('dynamic'));
def('geo_polygon_densify', 1, 3, fixed('dynamic'));
def('geo_line_interpolate_point', 2, 2, fixed('dynamic'));
def('geo_line_locate_point', 3, 4, fixed('real'));
def('geo_distance_point_to_polygon', 3, 3, fixed('real'));
def('geo_intersects_2lines', 2, 2, fixed('bool'));
def('geo_intersects_line_with_polygon', 2, 2, fixed('bool'));
def('geo_intersects_2polygons', 2, 2, fixed('bool'));
def('geo_point_buffer', 3, 4, fixed('dynamic'));
def('geo_line_buffer', 2, 3, fixed('dynamic'));
def('geo_polygon_buffer', 2, 3, fixed('dynamic'));
def('geo_line_simplify', 1, 2, fixed('dynamic'));
def('geo_polygon_simplify', 1, 2, fixed('dynamic'));
def('geo_simplify_polygons_array', 1, 2, fixed('dynamic'));
def('geo_union_polygons_array', 1, 1, fixed('dynamic'));
def('geo_intersection_2polygons', 2, 2, fixed('dynamic'));
def('geo_intersection_2lines', 2, 2, fixed('dynamic'));
def('geo_union_lines_array', 1, 1, fixed('dynamic'));
def('geo_polygon_to_h3cells', 1, 3, fixed('dynamic'));
def('geo_polygon_to_s2cells', 1, 3, fixed('dynamic'));
def('geo_line_to_s2cells', 1, 3, fixed('dynamic'));
def('geo_intersection_line_with_polygon', 2, 2, fixed('dynamic'));
def('geo_closest_point_on_line', 3, 3, fixed('dynamic'));
def('geo_closest_point_on_polygon', 3, 3, fixed('dynamic'));
// Kusto intermediate results: hll / tdigest values (libs/query-exec sketch-functions.ts). hll_merge,
// tdigest_merge and merge_tdigest are also aggregations: these are their forms outside summarize.
def('dcount_hll', 1, 1, fixed('long'));
def('hll_merge', 2, MANY, fixed('dynamic'));
def('tdigest_merge', 1, MANY, fixed('dynamic'));
def('merge_tdigest', 1, MANY, fixed('dynamic'));
// Without a typeof() literal the digest's own type is only known per row: a dynamic value (Kusto, too).
def('percentile_tdigest', 2, 3, (args) => args[2] ?? 'dynamic');
def('percentiles_array_tdigest', 2, MANY, fixed('dynamic'));
def('percentrank_tdigest', 2, 2, fixed('real'));
def('rank_tdigest', 2, 2, fixed('long'));
// Kusto text functions (libs/query-exec kusto-text-functions.ts)
def('parse_version', 1, 1, fixed('string'));
def('has_any_index', 2, 2, fixed('long'));
def('replace_strings', 3, 3, fixed('string'));
def('parse_user_agent', 2, 2, fixed('dynamic'));
// internal: operator helpers (`extend-valid`, `redact`)
def('is_valid_value', 1, 1, fixed('bool'));
def('redact_text', 3, MANY, sameAsFirst);
def('bag_pack_sparse', 2, MANY, fixed('dynamic'));
// internal: property / index access on dynamic values
def('getprop', 2, 2, fixed('dynamic'));
def('index', 2, 2, fixed('dynamic'));

export const SCALAR_SIGNATURES: ReadonlyMap<string, ScalarSignature> = new Map(table.map((s) => [s.name, s]));

/** Names the planner uses internally (operator rewrites, member access): never suggested. */
export const INTERNAL_FUNCTIONS: ReadonlySet<string> = new Set([
  'getprop',
  'index',
  'is_valid_value',
  'redact_text',
  'bag_pack_sparse',
]);

/** Rare functions suggested after the aggregates, so common typos (`cont`) still hint `count`. */
export const RARELY_SUGGESTED: ReadonlySet<string> = new Set(
  table.slice(firstRarelySuggested).map((s) => s.name),
);

/** The canonical name of a function (aliases resolved). */
export function canonicalFunctionName(name: string): string {
  return SCALAR_SIGNATURES.get(name)?.aliasOf ?? name;
}
