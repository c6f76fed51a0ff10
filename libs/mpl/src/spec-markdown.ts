/** Served on `OPTIONS /v1/query/_mpl` (mpl.md §3.1): a short self-description of the dialect. */
export const MPL_SPEC_MARKDOWN = `# MPL (Quarry)

Metrics Processing Language, compatible with Axiom's MPL. A query reads one metric and pipes it through stages:

\`\`\`
[set custom_unit = "ms";]
[param $name: Dataset|Duration|Regex|string|int|float|bool;]
dataset:metric[start..end] [as alias]
  | sample 0.5                       // keep a deterministic fraction of series
  | where tag == "v" and not (n >= 4 or re == #/^a/) | where t is int
  | map + 1 | map rate | map increase | map abs | map min(x) | map max(x)
  | map fill::prev | map fill::const(0) | map interpolate::linear
  | map filter::lt(x) (lt gt lte gte eq neq) | map is::gt(x)
  | align to 5m using avg|sum|min|max|count|last|prom::rate   // epoch-aligned windows
  | group [by t1, t2] using avg|sum|min|max|count
  | bucket [by t] to 5m using interpolate_cumulative_histogram(rate|increase, 0.5, 0.99, count, sum, avg)
  | bucket to 5m using interpolate_delta_histogram(0.9, min, max) | bucket to 1m using histogram(count, avg)
  | as new_name | extend k = "v-\${tag}"
(q1, q2) | compute name using + - * / min max avg   // pairs identical tag sets, strict intersection
\`\`\`

- Time: windows are \`[k·d, (k+1)·d)\` since the epoch; the grid covers every window intersecting the range.
- Histograms: \`\`\`where \`axiom.histogram\` == "count"\`\`\` (count|sum|min|max) exposes scalar sub-series.
- Regexes (\`#/…/\`): unanchored search on string tags, RE2 syntax (linear time; inline flags like \`(?i)\`; no lookaround or backreferences).
- Params: \`param__name=<MPL literal>\`; built-ins \`$__interval\` (range / ~250, rounded to a friendly step) and \`$__rate_interval\` (4×).
- Not supported: \`in [..]\`, sliding windows (\`over\`), \`replace\`, \`join\`, \`format\`, WASM functions.
- Output: \`format=metrics-v1|metrics-v2|metrics-v3\`; every series has \`start\`, \`resolution\` (seconds) and \`data\` (null = gap).
`;
