export {
  parseLegacyQuery,
  parseResolution,
  AGGREGATION_OPS,
  FILTER_OPS,
  DEFAULT_LEGACY_LIMIT,
  MAX_LEGACY_LIMIT,
  type LegacyQuery,
  type LegacyAggregation,
  type LegacyFilter,
} from './legacy-query';
export { filterToApl } from './legacy-filter';
export {
  legacyQueryToApl,
  MAX_SERIES_INTERVALS,
  MAX_ROWS_AT_ONE_TIME,
  type TimeOrderedMatches,
  type LegacyTranslation,
  type AggregationColumns,
} from './legacy-to-apl';
export { rowIdOf, timeOfRowId, timeMsOf } from './row-id';
