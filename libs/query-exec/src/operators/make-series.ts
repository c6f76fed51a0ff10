/**
 * make-series: a hash aggregate by (keys, time bucket) followed by a pivot of each aggregate into an
 * array over the buckets of [start, end). Buckets are aligned to `from` when given, else to the epoch.
 */
import { formatRfc3339, markLongArray } from '@quarry/common';
import type { Column, ColumnBatch, ColumnKind } from '@quarry/contracts';
import { call, lit, type AggregateNode, type MakeSeriesNode, type PExpr } from '@quarry/query-plan';
import { buildColumn, readValue } from '../columns';
import { aggregate } from './aggregate';
import type { BatchStream, ExecEnv } from './exec-env';

const MAX_BUCKETS = 100_000;
const BUCKET = '\u0000bucket';

export async function* makeSeries(input: BatchStream, node: MakeSeriesNode, env: ExecEnv): BatchStream {
  const step = lit(node.stepMs, 'timespan');
  const offset: PExpr =
    node.startMs === null
      ? node.time
      : call(
          '-',
          [node.time, lit(node.startMs, node.time.type)],
          node.time.type === 'datetime' ? 'timespan' : node.time.type,
        );
  const bucketExpr = call('bin', [offset, step], offset.type);
  const inner: AggregateNode = {
    kind: 'aggregate',
    input: node.input,
    keys: [...node.keys, { name: BUCKET, expr: bucketExpr }],
    aggs: node.aggs,
    schema: [
      ...node.keys.map((k) => ({ name: k.name, type: k.expr.type })),
      { name: BUCKET, type: offset.type },
      ...node.aggs.flatMap((a) => a.outputs),
    ],
  };
  let grouped: ColumnBatch | null = null;
  for await (const b of aggregate(input, inner, env)) grouped = b;
  if (!grouped || grouped.length === 0) {
    // `kind=nonempty` (Kusto's make-series page: "produces default result when the input is empty"): one row
    // of default series, also with `by` (its keys null: no group exists to name them).
    if (node.nonempty) yield defaultsRow(node);
    return;
  }
  const bucketCol = grouped.columns.get(BUCKET)!;
  // Absolute bucket start of each grouped row.
  const absolute: (number | null)[] = [];
  for (let i = 0; i < grouped.length; i++) {
    const v = readValue(bucketCol, i);
    absolute.push(typeof v === 'number' ? (node.startMs ?? 0) + v : null);
  }
  const present = absolute.filter((v): v is number => v !== null);
  const start = node.startMs ?? (present.length ? Math.min(...present) : 0);
  const end = node.endMs ?? (present.length ? Math.max(...present) + node.stepMs : start);
  const count = Math.max(0, Math.min(MAX_BUCKETS, Math.ceil((end - start) / node.stepMs)));

  const groupIndex = new Map<string, number>();
  const keyRows: number[] = [];
  const series: unknown[][][] = node.aggs.map(() => []);
  for (let i = 0; i < grouped.length; i++) {
    const t = absolute[i];
    if (t === null || t < start || t >= end) continue;
    const key = node.keys
      .map((k) => JSON.stringify(readValue(grouped!.columns.get(k.name)!, i)))
      .join('\u0001');
    let g = groupIndex.get(key);
    if (g === undefined) {
      g = keyRows.length;
      groupIndex.set(key, g);
      keyRows.push(i);
      node.aggs.forEach((_, a) => series[a].push(newSeries(node, a, count)));
    }
    const slot = Math.floor((t - start) / node.stepMs);
    node.aggs.forEach(
      (a, j) => (series[j][g!][slot] = readValue(grouped!.columns.get(a.outputs[0].name)!, i)),
    );
  }
  const timestamps: unknown[] = [];
  for (let s = 0; s < count; s++) {
    const t = start + s * node.stepMs;
    timestamps.push(node.time.type === 'datetime' ? formatRfc3339(t) : t);
  }
  const columns = new Map<string, Column>();
  node.keys.forEach((k) => {
    const src = grouped!.columns.get(k.name)!;
    columns.set(
      k.name,
      buildColumn(
        keyRows.map((i) => readValue(src, i)),
        src.kind,
      ),
    );
  });
  node.aggs.forEach((a, j) => columns.set(a.outputs[0].name, buildColumn(series[j], 'dynamic')));
  columns.set(
    node.timeName,
    buildColumn(
      keyRows.map(() => timestamps),
      'dynamic',
    ),
  );
  yield { length: keyRows.length, columns };
}

/**
 * One row of series holding only the defaults over [startMs, endMs), `by` keys null (`kind=nonempty` on
 * empty input).
 */
function defaultsRow(node: MakeSeriesNode): ColumnBatch {
  const start = node.startMs ?? 0;
  const end = node.endMs ?? start;
  const count = Math.max(0, Math.min(MAX_BUCKETS, Math.ceil((end - start) / node.stepMs)));
  const timestamps: unknown[] = [];
  for (let s = 0; s < count; s++) {
    const t = start + s * node.stepMs;
    timestamps.push(node.time.type === 'datetime' ? formatRfc3339(t) : t);
  }
  const columns = new Map<string, Column>();
  node.keys.forEach((k) => columns.set(k.name, buildColumn([null], k.expr.type as ColumnKind)));
  node.aggs.forEach((a, j) =>
    columns.set(a.outputs[0].name, buildColumn([newSeries(node, j, count)], 'dynamic')),
  );
  columns.set(node.timeName, buildColumn([timestamps], 'dynamic'));
  return { length: 1, columns };
}

/**
 * Aggregate `a`'s series of one group, every bucket its default. The series of an aggregate typed long
 * (`count()`, `dcount`, `sum` of longs) with a whole or null default holds longs, as in Kusto: marked so
 * that `series_fill_linear` interpolates whole values (`long-arrays.ts` in @quarry/common).
 */
function newSeries(node: MakeSeriesNode, a: number, count: number): unknown[] {
  const fill = node.defaults[a];
  const series = new Array(count).fill(fill);
  const longs = node.aggs[a].outputs[0].type === 'long' && (fill === null || Number.isInteger(fill));
  return longs ? markLongArray(series) : series;
}
