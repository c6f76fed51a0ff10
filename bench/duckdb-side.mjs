// DuckDB side of the benchmark: the same events, the same questions in SQL, as many threads as Quarry's
// workers (perf.md anchors are per-thread ratios). Each query names its APL twin in run.mjs and how to compare answers.
import * as fs from 'node:fs';
import * as path from 'node:path';

const COLUMNS = `{
  _time: 'TIMESTAMP', method: 'VARCHAR', status: 'VARCHAR', uri: 'VARCHAR', req_duration_ms: 'DOUBLE',
  resp_body_size_bytes: 'BIGINT', resp_header_size_bytes: 'BIGINT', id: 'VARCHAR',
  geo: 'STRUCT(city VARCHAR, country VARCHAR)', server_datacenter: 'VARCHAR', user_agent: 'VARCHAR',
  is_tls: 'BOOLEAN', message: 'VARCHAR'
}`;

/** SQL per benchmark query (same names as run.mjs), aliased to the APL output column names. */
export const SQL = {
  count: `SELECT count(*) AS "count" FROM t`,
  'filter-eq-count': `SELECT count(*) AS "count" FROM t WHERE status = '500'`,
  'group-by-status': `SELECT status, count(*) AS count_ FROM t GROUP BY status`,
  'group-by-country': `SELECT geo.country AS "geo.country", count(*) AS count_ FROM t GROUP BY 1`,
  'avg-by-method': `SELECT method, avg(req_duration_ms) AS avg_req_duration_ms FROM t GROUP BY method`,
  'count-by-minute': `SELECT time_bucket(INTERVAL 1 minute, _time) AS _time, count(*) AS count_ FROM t GROUP BY 1`,
  'dcount-id': `SELECT approx_count_distinct(id) AS dcount_id FROM t`,
  'p95-by-dc': `SELECT server_datacenter, quantile_disc(req_duration_ms, 0.95) AS percentile_req_duration_ms FROM t GROUP BY 1`,
  'top-uris': `SELECT uri, count(*) AS c FROM t GROUP BY uri ORDER BY c DESC LIMIT 10`,
  contains: `SELECT count(*) AS "count" FROM t WHERE message ILIKE '%timeout%'`,
  'contains-cs': `SELECT count(*) AS "count" FROM t WHERE message LIKE '%timeout%'`,
  // APL has: a whole term (maximal run of letters and digits), case-insensitive.
  has: `SELECT count(*) AS "count" FROM t WHERE regexp_matches(message, '(^|[^[:alnum:]])timeout([^[:alnum:]]|$)', 'i')`,
  // Every column, as the APL twin returns (it has no project): both sides read and hand over whole rows.
  'recent-404s': `SELECT * FROM t WHERE status = '404' ORDER BY _time DESC LIMIT 100`,
};

/** How to compare answers: which columns, ordered or not, relative tolerance (approximate aggregates). */
export const COMPARE = {
  // Timed against DuckDB's own approximation, checked against the exact count (issue: within 2%).
  'dcount-id': { tolerance: 0.02, checkSql: 'SELECT count(DISTINCT id) AS dcount_id FROM t' },
  'p95-by-dc': { tolerance: 0.02 },
  'top-uris': { columns: ['c'], ordered: true },
  // Rows that share a `_time` may come in any order, and the last of them past the limit is any of them:
  // the times must agree row by row, the ids as a set within each time (bar the one the limit cuts).
  'recent-404s': { columns: ['_time', 'id'], ordered: true, tiesOn: '_time' },
};

/** The one-hour window query of queries.mjs. */
export const WINDOW_SQL = `SELECT count(*) AS "count" FROM t WHERE _time >= TIMESTAMP '2024-05-01 12:00:00' AND _time < TIMESTAMP '2024-05-01 13:00:00'`;

/** A file database loaded from the NDJSON with `threads` threads; load time and CPU (this process's). */
export async function openDuckDb(dir, ndjsonFile, threads = 1) {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const dbFile = path.join(dir, 'bench.duckdb');
  const instance = await DuckDBInstance.create(dbFile, { threads: String(threads) });
  const conn = await instance.connect();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  await conn.run(
    `CREATE TABLE t AS SELECT * FROM read_json('${ndjsonFile}', format='newline_delimited', columns=${COLUMNS})`,
  );
  await conn.run('CHECKPOINT');
  const loadSeconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    loadSeconds,
    loadCpuSeconds: (cpu.user + cpu.system) / 1e6,
    fileBytes: fs.statSync(dbFile).size,
    async query(sql) {
      const reader = await conn.runAndReadAll(sql);
      return { columns: reader.columnNames(), rows: reader.getRowObjectsJson() };
    },
    close() {
      conn.closeSync?.();
      instance.closeSync?.();
    },
  };
}

function normalize(value) {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') {
    if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(value)) {
      const ms = Date.parse(
        /Z|[+-]\d{2}:?\d{2}$/.test(value) ? value.replace(' ', 'T') : value.replace(' ', 'T') + 'Z',
      );
      if (!Number.isNaN(ms)) return ms;
    }
    if (/^-?\d+(\.\d+)?$/.test(value)) return Number(value); // DuckDB renders BIGINT as text
  }
  return value;
}

function rowsEqual(a, b, tolerance) {
  return a.every((v, i) => {
    const w = b[i];
    if (typeof v === 'number' && typeof w === 'number') {
      return Math.abs(v - w) <= Math.max(1e-9, tolerance) * Math.max(1, Math.abs(v), Math.abs(w));
    }
    return v === w;
  });
}

/** Compares Quarry's first table (tabular JSON) with DuckDB's rows; returns null when equal, else a reason. */
export function compareAnswers(name, table, duck) {
  const spec = COMPARE[name] ?? {};
  const names = spec.columns ?? duck.columns;
  const fieldNames = table.fields.map((f) => f.name);
  const missing = names.filter((n) => !fieldNames.includes(n));
  if (missing.length) return `Quarry result lacks columns ${missing.join(', ')}`;
  const n = table.columns[0]?.length ?? 0;
  const ours = [];
  for (let r = 0; r < n; r++) ours.push(names.map((c) => normalize(table.columns[fieldNames.indexOf(c)][r])));
  const theirs = duck.rows.map((row) => names.map((c) => normalize(row[c])));
  if (ours.length !== theirs.length) return `row count ${ours.length} vs DuckDB ${theirs.length}`;
  const tolerance = spec.tolerance ?? 1e-9;
  if (spec.ordered && spec.tiesOn) return compareWithTies(ours, theirs, names.indexOf(spec.tiesOn));
  if (spec.ordered) {
    for (let i = 0; i < ours.length; i++)
      if (!rowsEqual(ours[i], theirs[i], tolerance))
        return `row ${i}: ${JSON.stringify(ours[i])} vs ${JSON.stringify(theirs[i])}`;
    return null;
  }
  const key = (row) => JSON.stringify(row.map((v) => (typeof v === 'number' ? null : v)));
  const pending = new Map();
  for (const row of theirs) pending.set(key(row), [...(pending.get(key(row)) ?? []), row]);
  for (const row of ours) {
    const candidates = pending.get(key(row)) ?? [];
    const i = candidates.findIndex((c) => rowsEqual(row, c, tolerance));
    if (i < 0) return `row ${JSON.stringify(row)} not in DuckDB's answer`;
    candidates.splice(i, 1);
  }
  return null;
}

/** Ordered rows whose sort key (column `k`) has ties: keys row by row, the rest as a set per key. */
function compareWithTies(ours, theirs, k) {
  for (let i = 0; i < ours.length; i++)
    if (ours[i][k] !== theirs[i][k]) return `row ${i}: sort key ${ours[i][k]} vs ${theirs[i][k]}`;
  const last = ours.length ? ours[ours.length - 1][k] : undefined;
  const groups = (rows) => {
    const byKey = new Map();
    for (const row of rows) byKey.set(row[k], [...(byKey.get(row[k]) ?? []), JSON.stringify(row)]);
    return byKey;
  };
  const a = groups(ours);
  const b = groups(theirs);
  for (const [key, rows] of a) {
    if (key === last) continue; // the limit may cut this tie anywhere
    const other = [...(b.get(key) ?? [])].sort();
    if (JSON.stringify([...rows].sort()) !== JSON.stringify(other)) return `rows at ${key} differ`;
  }
  return null;
}
