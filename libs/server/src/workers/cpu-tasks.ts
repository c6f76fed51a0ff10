import { formatRfc3339, QuarryError } from '@quarry/common';
import { selectRows, type ColumnBatch, type IngestStatus } from '@quarry/contracts';
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
  type MergedGroup,
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
  /**
   * The log's record limit (Kafka's message.max.bytes): a batch whose record would be larger is cut into
   * several records by rows. A single event larger than the limit fails the request with 413.
   */
  maxRecordBytes?: number;
}

export interface LogRecordPayload {
  payload: Uint8Array;
  summary: LogRecordSummary;
}

export interface IngestTaskOutput {
  status: IngestStatus;
  /** The ingest log records to append (one unless the batch had to be cut); empty when none was accepted. */
  records: LogRecordPayload[];
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
  if (batch === null) return { status, records: [] };
  return { status, records: encodeRecords(input, batch) };
}

/**
 * The batch as log records no larger than `maxRecordBytes`: cut in halves by rows until each fits (a
 * record's size is about proportional to its rows).
 */
function encodeRecords(input: IngestTaskInput, batch: ColumnBatch): LogRecordPayload[] {
  const payload = encodeLogRecord(
    { datasetId: input.datasetId, sysTime: input.nowMs, batch },
    { shared: true },
  );
  const limit = input.maxRecordBytes;
  if (limit === undefined || payload.byteLength <= limit) {
    return [{ payload, summary: summarizeBatch(input.datasetId, input.nowMs, batch) }];
  }
  if (batch.length === 1) {
    throw new QuarryError(
      'too_large',
      `an event is ${payload.byteLength} bytes as a log record, more than the ingest log's limit of ${limit} bytes; nothing was ingested`,
      { code: 'ingest_event_too_large', details: { limit, bytes: payload.byteLength } },
    );
  }
  const half = Math.ceil(batch.length / 2);
  const rows = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);
  return [
    ...encodeRecords(input, selectRows(batch, rows(0, half))),
    ...encodeRecords(input, selectRows(batch, rows(half, batch.length))),
  ];
}

/** Blocks (cut at span boundaries) from ingest log record payloads of one dataset, in log order. */
export function buildBlocksTask(input: { payloads: Uint8Array[]; spans: SpanPolicy }): BuiltBlock[] {
  return buildBlocksFromRecords(input.payloads, input.spans);
}

/** One merged block from stored blocks, or null when their column kinds disagree. */
export function mergeBlocksTask(input: { blocks: Uint8Array[] }): MergedGroup[] {
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
