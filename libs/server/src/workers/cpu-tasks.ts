import { formatRfc3339 } from '@quarry/common';
import type { IngestStatus } from '@quarry/contracts';
import {
  decodeBody,
  DEFAULT_INGEST_LIMITS,
  parseEventLabels,
  parseIngestBatch,
  processedBytesFor,
} from '@quarry/ingest-core';
import {
  buildBlocksFromRecords,
  mergeBlocks,
  type BuiltBlock,
  type SpanPolicy,
} from '../storage/block-builder';
import { encodeLogRecord, summarizeBatch, type LogRecordSummary } from '../storage/log-codec';
import { settle, type TaskResult } from './task-result';

/**
 * The CPU-heavy steps of ingest and compaction as plain functions of plain data, so they can run on a
 * worker thread (`cpu-worker.ts`, through `CpuPool`) or inline. Inputs and outputs survive structured
 * cloning; errors come back as values (`TaskResult`).
 * Nothing here may import NestJS or touch storage: a worker loads only this module and the libs below it.
 */

/** How to read an ingest body: the request headers that shape parsing. */
export interface IngestBodyOptions {
  contentType?: string;
  contentEncoding?: string;
  timestampField?: string;
  timestampFormat?: string;
  csvDelimiter?: string;
  csvFieldsHeader?: string;
  labelsHeader?: string;
}

export interface IngestTaskInput extends IngestBodyOptions {
  datasetId: string;
  body: Uint8Array;
  mapFields: string[];
  /** Receive time: `_sysTime` of every row and the time of events without one. */
  nowMs: number;
}

export interface IngestTaskOutput {
  status: IngestStatus;
  /** The ingest log record to append, or null when no event was accepted. */
  record: { payload: Uint8Array; summary: LogRecordSummary } | null;
}

/** decode ▶ parse ▶ normalize ▶ columns ▶ log record payload. */
export async function ingestTask(input: IngestTaskInput): Promise<IngestTaskOutput> {
  const labels = parseEventLabels(input.labelsHeader);
  const body = Buffer.from(input.body.buffer, input.body.byteOffset, input.body.byteLength);
  const decoded = await decodeBody(body, input.contentEncoding, DEFAULT_INGEST_LIMITS);
  const { batch, failures } = parseIngestBatch(decoded, {
    contentType: input.contentType,
    timestampField: input.timestampField || undefined,
    timestampFormat: input.timestampFormat || undefined,
    csvDelimiter: input.csvDelimiter || undefined,
    csvFields: input.csvFieldsHeader,
    labels,
    mapFields: input.mapFields,
    nowMs: input.nowMs,
    limits: DEFAULT_INGEST_LIMITS,
  });
  const ingested = batch === null ? 0 : batch.length;
  const failedAt = formatRfc3339(input.nowMs);
  const status: IngestStatus = {
    ingested,
    failed: failures.length,
    failures: failures.map((f) => ({ timestamp: failedAt, error: f.error })),
    processedBytes: processedBytesFor(decoded, input.labelsHeader),
    blocksCreated: 0,
    walLength: ingested,
  };
  if (batch === null) return { status, record: null };
  const record = { datasetId: input.datasetId, sysTime: input.nowMs, batch };
  return {
    status,
    record: {
      payload: encodeLogRecord(record, { shared: true }),
      summary: summarizeBatch(input.datasetId, input.nowMs, batch),
    },
  };
}

/** Blocks (cut at span boundaries) from ingest log record payloads of one dataset, in log order. */
export function buildBlocksTask(input: { payloads: Uint8Array[]; spans: SpanPolicy }): BuiltBlock[] {
  return buildBlocksFromRecords(input.payloads, input.spans);
}

/** One merged block from stored blocks, or null when their column kinds disagree. */
export function mergeBlocksTask(input: { blocks: Uint8Array[] }): BuiltBlock | null {
  return mergeBlocks(input.blocks);
}

export const CPU_TASKS = {
  ingest: ingestTask,
  buildBlocks: buildBlocksTask,
  mergeBlocks: mergeBlocksTask,
};
export type CpuTasks = typeof CPU_TASKS;
export type CpuTaskName = keyof CpuTasks;

/** Runs a task and turns whatever it throws into a value. */
export function runTask<K extends CpuTaskName>(
  name: K,
  input: Parameters<CpuTasks[K]>[0],
): Promise<TaskResult<Awaited<ReturnType<CpuTasks[K]>>>> {
  const task = CPU_TASKS[name] as (input: unknown) => unknown;
  return settle(() => task(input) as Awaited<ReturnType<CpuTasks[K]>>);
}
