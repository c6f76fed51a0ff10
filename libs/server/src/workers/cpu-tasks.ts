import { formatRfc3339, QuarryError, type ErrorKind } from '@quarry/common';
import type { IngestStatus } from '@quarry/contracts';
import {
  decodeBody,
  DEFAULT_INGEST_LIMITS,
  parseEventLabels,
  parseIngestBatch,
  processedBytesFor,
} from '@quarry/ingest-core';
import { buildBlockFromRecords, mergeBlocks, type BuiltBlock } from '../storage/block-builder';
import { encodeLogRecord, summarizeBatch, type LogRecordSummary } from '../storage/log-codec';

/**
 * The CPU-heavy steps of ingest and compaction as plain functions of plain data, so they can run on a
 * worker thread (`cpu-worker.ts`, through `CpuPool`) or inline. Inputs and outputs survive structured
 * cloning; errors come back as values (`TaskResult`), because an Error crossing threads loses its class.
 * Nothing here may import NestJS or touch storage: a worker loads only this module and the libs below it.
 */

export interface IngestTaskInput {
  datasetId: string;
  body: Uint8Array;
  contentType?: string;
  contentEncoding?: string;
  timestampField?: string;
  timestampFormat?: string;
  csvDelimiter?: string;
  csvFieldsHeader?: string;
  labelsHeader?: string;
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
      payload: encodeLogRecord(record),
      summary: summarizeBatch(input.datasetId, input.nowMs, batch),
    },
  };
}

/** One block from ingest log record payloads of one dataset, in log order. */
export function buildBlockTask(input: { payloads: Uint8Array[] }): BuiltBlock {
  return buildBlockFromRecords(input.payloads);
}

/** One merged block from stored blocks, or null when their column kinds disagree. */
export function mergeBlocksTask(input: { blocks: Uint8Array[] }): BuiltBlock | null {
  return mergeBlocks(input.blocks);
}

export const CPU_TASKS = {
  ingest: ingestTask,
  buildBlock: buildBlockTask,
  mergeBlocks: mergeBlocksTask,
};
export type CpuTasks = typeof CPU_TASKS;
export type CpuTaskName = keyof CpuTasks;

/** An error as a structured-clone-safe value. */
export interface SerializedError {
  quarry: boolean;
  kind: ErrorKind;
  code: string;
  message: string;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
  stack?: string;
}

export type TaskResult<T> = { ok: true; value: T } | { ok: false; error: SerializedError };

/** Runs a task and turns whatever it throws into a value. */
export async function runTask<K extends CpuTaskName>(
  name: K,
  input: Parameters<CpuTasks[K]>[0],
): Promise<TaskResult<Awaited<ReturnType<CpuTasks[K]>>>> {
  try {
    const task = CPU_TASKS[name] as (input: unknown) => unknown;
    return { ok: true, value: (await task(input)) as Awaited<ReturnType<CpuTasks[K]>> };
  } catch (err) {
    return { ok: false, error: serializeError(err) };
  }
}

export function serializeError(err: unknown): SerializedError {
  if (err instanceof QuarryError) {
    return {
      quarry: true,
      kind: err.kind,
      code: err.code,
      message: err.message,
      details: err.details,
      retryAfterSeconds: err.retryAfterSeconds,
      stack: err.stack,
    };
  }
  const e = err instanceof Error ? err : new Error(String(err));
  return { quarry: false, kind: 'internal', code: 'internal', message: e.message, stack: e.stack };
}

/** The error a task threw, rebuilt on this side: a QuarryError stays one (same kind, code, details). */
export function deserializeError(error: SerializedError): Error {
  if (!error.quarry) {
    const rebuilt = new Error(error.message);
    if (error.stack) rebuilt.stack = error.stack;
    return rebuilt;
  }
  return new QuarryError(error.kind, error.message, {
    code: error.code,
    details: error.details,
    retryAfterSeconds: error.retryAfterSeconds,
  });
}
