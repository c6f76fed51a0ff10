/**
 * The APL endpoint's tabular answer (`POST /v1/datasets/_apl?format=tabular`) turned into what the pages
 * draw: rows for the table, and series for a chart when the result is binned by `_time`.
 */
export interface AplField {
  name: string;
  type: string;
  agg?: { name: string };
}

export interface AplTable {
  name: string;
  fields: AplField[];
  columns: unknown[][];
  groups?: { name: string }[];
  buckets?: { field: string; size: number };
}

export interface AplStatus {
  elapsedTime: number;
  rowsExamined: number;
  rowsMatched: number;
  isPartial?: boolean;
}

export interface AplResponse {
  format: string;
  status: AplStatus;
  tables: AplTable[];
}

export interface ResultGrid {
  columns: string[];
  types: string[];
  rowCount: number;
  /** Column-major values, as the API sends them (no per-row objects for 100k rows). */
  values: unknown[][];
}

/** Hidden by default: the ingest time is noise in a result table. */
const HIDDEN = new Set(['_sysTime']);

export function toGrid(table: AplTable): ResultGrid {
  const order = table.fields
    .map((f, i) => ({ f, i }))
    .filter(({ f }) => !HIDDEN.has(f.name))
    .sort((a, b) => (a.f.name === '_time' ? -1 : b.f.name === '_time' ? 1 : 0));
  return {
    columns: order.map(({ f }) => f.name),
    types: order.map(({ f }) => f.type),
    rowCount: table.columns[0]?.length ?? 0,
    values: order.map(({ i }) => table.columns[i] ?? []),
  };
}

/** One row as an object (the event panel's JSON). */
export function rowObject(grid: ResultGrid, row: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  grid.columns.forEach((name, c) => {
    out[name] = grid.values[c]![row];
  });
  return out;
}

export interface TimeSeries {
  /** Seconds since the epoch, ascending (uPlot's x). */
  xs: number[];
  series: { name: string; values: (number | null)[] }[];
}

/**
 * Series from a result with a `_time` column and numeric aggregate columns: one series per aggregate
 * and group (`count_ GET`, `count_ POST`). Null when the result is not a time series.
 */
export function toTimeSeries(table: AplTable): TimeSeries | null {
  const timeAt = table.fields.findIndex((f) => f.name === '_time');
  if (timeAt < 0) return null;
  const isNumeric = (t: string) => /int|long|float|real|double|decimal/i.test(t);
  const groupedBy = new Set((table.groups ?? []).map((g) => g.name));
  const valueCols = table.fields
    .map((f, i) => ({ f, i }))
    .filter(
      ({ f, i }) => i !== timeAt && (f.agg !== undefined || (!groupedBy.has(f.name) && isNumeric(f.type))),
    )
    .filter(({ f }) => isNumeric(f.type));
  if (valueCols.length === 0 || !table.buckets) return null;
  const keyCols = table.fields
    .map((f, i) => ({ f, i }))
    .filter(({ f, i }) => i !== timeAt && groupedBy.has(f.name));
  const times = table.columns[timeAt] ?? [];
  const xsSet = new Set<number>();
  const cells = new Map<string, Map<number, number>>();
  for (let r = 0; r < times.length; r++) {
    const t = Date.parse(String(times[r])) / 1000;
    if (Number.isNaN(t)) continue;
    xsSet.add(t);
    const key = keyCols.map(({ i }) => String(table.columns[i]![r])).join(' ');
    for (const { f, i } of valueCols) {
      const name = [valueCols.length > 1 || !key ? f.name : '', key].filter(Boolean).join(' ');
      let m = cells.get(name);
      if (!m) cells.set(name, (m = new Map()));
      const v = table.columns[i]![r];
      m.set(t, (m.get(t) ?? 0) + (typeof v === 'number' ? v : Number(v)));
    }
  }
  const xs = [...xsSet].sort((a, b) => a - b);
  const series = [...cells.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, m]) => ({ name, values: xs.map((x) => m.get(x) ?? null) }));
  return { xs, series };
}

/** "200 rows examined · 20 matched · 12 ms": plain digits, so a reader (or a test) can parse it. */
export function statusLine(status: AplStatus): string {
  const ms = Math.max(0, Math.round(status.elapsedTime / 1000));
  const line = `${status.rowsExamined} rows examined · ${status.rowsMatched} matched · ${ms} ms`;
  return status.isPartial ? `${line} (partial)` : line;
}

export function formatCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

export interface Slice {
  label: string;
  value: number;
}

const NUMERIC = /int|long|float|real|double|decimal/;

/**
 * A grouped result (`summarize count() by status`) as labelled values, largest first: the value is the
 * first aggregate column (else the last numeric one), the label the other columns but `_time`, joined
 * with " · ". Past `limit` slices the rest are summed into "Other" when `other` is set.
 */
export function toSlices(table: AplTable, limit: number, other = false): Slice[] {
  let valueAt = table.fields.findIndex((f) => f.agg !== undefined && NUMERIC.test(f.type));
  if (valueAt < 0) valueAt = table.fields.map((f) => NUMERIC.test(f.type)).lastIndexOf(true);
  if (valueAt < 0) return [];
  const labelCols = table.fields
    .map((f, i) => ({ f, i }))
    .filter(({ f, i }) => i !== valueAt && f.name !== '_time')
    .map(({ i }) => i);
  const rows = table.columns[valueAt]?.length ?? 0;
  const byLabel = new Map<string, number>();
  for (let r = 0; r < rows; r++) {
    const value = Number(table.columns[valueAt]![r]);
    if (!Number.isFinite(value)) continue;
    const label = labelCols.length
      ? labelCols.map((c) => formatCell(table.columns[c]![r])).join(' · ')
      : table.fields[valueAt]!.name;
    byLabel.set(label, (byLabel.get(label) ?? 0) + value);
  }
  const sorted = [...byLabel].map(([label, value]) => ({ label, value })).sort((a, b) => b.value - a.value);
  if (sorted.length <= limit) return sorted;
  const top = sorted.slice(0, limit);
  if (!other) return top;
  const rest = sorted.slice(limit).reduce((sum, s) => sum + s.value, 0);
  return [...top, { label: 'Other', value: rest }];
}

/**
 * SVG paths of a pie of radius `r` centred on (r, r), one per slice (negative values count as zero). A
 * slice that is the whole pie is drawn as two half arcs, since one arc cannot start and end at one point.
 */
export function pieArcs(slices: readonly Slice[], r: number): { d: string; fraction: number }[] {
  const total = slices.reduce((sum, s) => sum + Math.max(0, s.value), 0);
  if (total <= 0) return [];
  let angle = -Math.PI / 2;
  const point = (a: number) => `${round(r + r * Math.cos(a))} ${round(r + r * Math.sin(a))}`;
  return slices.map((s) => {
    const fraction = Math.max(0, s.value) / total;
    const start = angle;
    angle += fraction * 2 * Math.PI;
    if (fraction >= 0.999999)
      return {
        fraction,
        d: `M ${point(start)} A ${r} ${r} 0 1 1 ${point(start + Math.PI)} A ${r} ${r} 0 1 1 ${point(start)} Z`,
      };
    const large = fraction > 0.5 ? 1 : 0;
    return { fraction, d: `M ${r} ${r} L ${point(start)} A ${r} ${r} 0 ${large} 1 ${point(angle)} Z` };
  });
}

const round = (n: number) => Math.round(n * 100) / 100;
