import { internal } from '@quarry/common';
import type { IngestLogRecord } from '@quarry/contracts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Ingest log payload v1: the record as UTF-8 JSON. The frame's CRC already guards integrity. */
export function encodeLogRecord(record: IngestLogRecord): Uint8Array {
  return encoder.encode(JSON.stringify(record));
}

export function decodeLogRecord(payload: Uint8Array): IngestLogRecord {
  const record = JSON.parse(decoder.decode(payload)) as IngestLogRecord;
  if (record.v !== 1) throw internal(`unsupported ingest log record version ${String(record.v)}`);
  return record;
}
