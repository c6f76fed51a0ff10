import { internal } from '@quarry/common';
import type { HistogramPoint } from '@quarry/contracts';
import type { IncomingSeries, MetricsBatch } from './types';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Metrics-log payload v1: the batch as UTF-8 JSON (the log frame's CRC guards integrity). Non-finite
 * values become null in JSON and NaN (a gap) when read back.
 */
export function encodeMetricsRecord(batch: MetricsBatch): Uint8Array {
  return encoder.encode(JSON.stringify({ v: 1, ...batch }));
}

export function decodeMetricsRecord(payload: Uint8Array): MetricsBatch {
  const record = JSON.parse(decoder.decode(payload)) as MetricsBatch & { v: unknown };
  if (record.v !== 1) throw internal(`unsupported metrics log record version ${String(record.v)}`);
  return { datasetId: record.datasetId, series: record.series.map(reviveSeries) };
}

const num = (v: number | null): number => (v === null ? NaN : v);

function reviveSeries(series: IncomingSeries): IncomingSeries {
  if (series.kind === 'scalar') return { ...series, values: series.values.map((v) => num(v)) };
  return {
    ...series,
    points: series.points.map((p): HistogramPoint => ({ ...p, count: num(p.count), sum: num(p.sum) })),
  };
}
