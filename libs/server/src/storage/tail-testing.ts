import type { LogPosition } from '@quarry/contracts';
import { encodeLogRecord, summarizeBatch, type LogRecordBatch } from './log-codec';
import type { TailBuffer } from './tail-buffer';

/** For tests: adds a record to the tail as ingest does (encoded payload, summary, decoded batch). */
export function addToTail(tail: TailBuffer, position: LogPosition, record: LogRecordBatch): void {
  tail.add(
    position,
    encodeLogRecord(record),
    summarizeBatch(record.datasetId, record.sysTime, record.batch),
    record.batch,
  );
}
