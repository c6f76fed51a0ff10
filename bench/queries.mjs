// The benchmark's queries (APL); duckdb-side.mjs holds the equivalent SQL under the same names.
export const DATASET = 'bench-http-logs';

export const QUERIES = [
  ['count', `['${DATASET}'] | count`],
  ['filter-eq-count', `['${DATASET}'] | where status == '500' | count`],
  ['group-by-status', `['${DATASET}'] | summarize count() by status`],
  ['group-by-country', `['${DATASET}'] | summarize count() by ['geo.country']`],
  ['avg-by-method', `['${DATASET}'] | summarize avg(req_duration_ms) by method`],
  ['count-by-minute', `['${DATASET}'] | summarize count() by bin(_time, 1m)`],
  ['dcount-id', `['${DATASET}'] | summarize dcount(id)`],
  ['p95-by-dc', `['${DATASET}'] | summarize percentile(req_duration_ms, 95) by server_datacenter`],
  ['top-uris', `['${DATASET}'] | summarize c = count() by uri | top 10 by c`],
  ['contains', `['${DATASET}'] | where message contains 'timeout' | count`],
  ['contains-cs', `['${DATASET}'] | where message contains_cs 'timeout' | count`],
  ['has', `['${DATASET}'] | where message has 'timeout' | count`],
  ['recent-404s', `['${DATASET}'] | where status == '404' | sort by _time desc | take 100`],
];

/** One hour of the generated day (bench/generate.mjs ends its events at 2024-05-02T00:00Z). */
export const WINDOW_QUERY = {
  label: '2024-05-01 12:00–13:00 of a day of events',
  apl: `['${DATASET}'] | where _time >= datetime(2024-05-01T12:00:00Z) and _time < datetime(2024-05-01T13:00:00Z) | count`,
};
