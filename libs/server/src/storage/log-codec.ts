import { decodeBlock, encodeBlock, readFooter } from '@quarry/block-format';
import { internal } from '@quarry/common';
import {
  batchFromEvents,
  TIME_FIELD,
  type ColumnBatch,
  type ColumnKind,
  type IngestLogRecord,
} from '@quarry/contracts';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A log record as the server uses it: one accepted batch for one dataset, as columns. */
export interface LogRecordBatch {
  datasetId: string;
  /** `_sysTime` of every row (epoch ms); also present in the batch as the `_sysTime` column. */
  sysTime: number;
  /** Built by `batchFromEvents`: `_time`, `_sysTime` and one column per field. */
  batch: ColumnBatch;
}

/** First payload byte of a v2 record. v1 payloads are JSON objects and start with `{` (0x7b). */
const V2_TAG = 0x02;
const V1_TAG = 0x7b;
const V2_HEADER_BYTES = 1 + 2 + 8; // tag, dataset id length (u16 LE), sysTime (f64 LE)

/**
 * Ingest log payload v2: the record's rows as a column batch, serialized with the block encoder without
 * compression, so ingest builds the columns once (the tail keeps the same batch for queries and the
 * compactor) and the compactor re-reads a record from the log only when it is not in memory.
 *
 *   [0]        0x02
 *   [1,3)      dataset id byte length n, u16 LE
 *   [3,11)     sysTime, f64 LE
 *   [11,11+n)  dataset id, UTF-8
 *   ...        a block (docs/block-format.md) with deflate off; its chunks carry their own CRC-32
 *
 * The frame's checksum already guards the whole payload.
 *
 * With `shared`, the payload lives in a SharedArrayBuffer: an ingest worker encodes it, and the event loop
 * (log, tail) and the compaction worker then all read the same bytes, where plain memory would be copied on
 * each hop between threads (about 300 MB per million bench events for the compaction hop alone).
 */
export function encodeLogRecord(record: LogRecordBatch, options: { shared?: boolean } = {}): Uint8Array {
  const id = encoder.encode(record.datasetId);
  if (id.length > 0xffff) throw internal('dataset id too long for an ingest log record');
  // The block is written after room for the header, so its bytes are not copied again.
  const headroom = V2_HEADER_BYTES + id.length;
  const out = encodeBlock(record.batch, { preset: 'fast', headroom, shared: options.shared });
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  out[0] = V2_TAG;
  view.setUint16(1, id.length, true);
  view.setFloat64(3, record.sysTime, true);
  out.set(id, V2_HEADER_BYTES);
  return out;
}

/** Ingest log payload v1 (written by older versions, still replayed): the record as UTF-8 JSON. */
export function encodeLogRecordV1(record: IngestLogRecord): Uint8Array {
  return encoder.encode(JSON.stringify(record));
}

/** Decodes a v1 or v2 payload into the batch `batchFromEvents` gives for its events. */
export function decodeLogRecord(payload: Uint8Array): LogRecordBatch {
  if (payload.length > 0 && payload[0] === V2_TAG) return decodeV2(payload);
  if (payload.length > 0 && payload[0] === V1_TAG) {
    const record = JSON.parse(decoder.decode(payload)) as IngestLogRecord;
    if (record.v !== 1) throw internal(`unsupported ingest log record version ${String(record.v)}`);
    return {
      datasetId: record.datasetId,
      sysTime: record.sysTime,
      batch: batchFromEvents(record.events, record.sysTime),
    };
  }
  throw internal(`unsupported ingest log record (first byte ${payload.length ? payload[0] : 'missing'})`);
}

function decodeV2(payload: Uint8Array): LogRecordBatch {
  const { datasetId, sysTime, block } = splitV2(payload);
  // Strings stay UTF-8: the compactor moves them into blocks as bytes; a query decodes them on first use.
  return { datasetId, sysTime, batch: decodeBlock(block, null, { utf8Strings: true }) };
}

function splitV2(payload: Uint8Array): { datasetId: string; sysTime: number; block: Uint8Array } {
  if (payload.length < V2_HEADER_BYTES) throw internal('corrupt ingest log record: short header');
  const view = new DataView(payload.buffer, payload.byteOffset, payload.byteLength);
  const idLength = view.getUint16(1, true);
  const sysTime = view.getFloat64(3, true);
  const blockStart = V2_HEADER_BYTES + idLength;
  if (blockStart > payload.length) throw internal('corrupt ingest log record: dataset id past the end');
  const datasetId = decoder.decode(payload.subarray(V2_HEADER_BYTES, blockStart));
  return { datasetId, sysTime, block: payload.subarray(blockStart) };
}

/** What the tail and the query planner need of a record without decoding its columns. */
export interface LogRecordSummary {
  datasetId: string;
  sysTime: number;
  rows: number;
  /** `_time` range; +Infinity/-Infinity when the record has no rows. */
  minTime: number;
  maxTime: number;
  /** Every column with its kind. */
  fields: { name: string; kind: ColumnKind }[];
}

/** The summary of a batch about to be logged. */
export function summarizeBatch(datasetId: string, sysTime: number, batch: ColumnBatch): LogRecordSummary {
  let minTime = Number.POSITIVE_INFINITY;
  let maxTime = Number.NEGATIVE_INFINITY;
  const time = batch.columns.get(TIME_FIELD);
  if (time !== undefined && time.kind === 'datetime') {
    const values = time.values;
    for (let i = 0; i < batch.length; i++) {
      if (values[i] < minTime) minTime = values[i];
      if (values[i] > maxTime) maxTime = values[i];
    }
  }
  const fields = [...batch.columns].map(([name, column]) => ({ name, kind: column.kind }));
  return { datasetId, sysTime, rows: batch.length, minTime, maxTime, fields };
}

/** The dataset a payload belongs to, read from its header (v1: the JSON is decoded). */
export function datasetIdOfLogRecord(payload: Uint8Array): string {
  if (payload.length > 0 && payload[0] === V2_TAG) return splitV2(payload).datasetId;
  return decodeLogRecord(payload).datasetId;
}

/** The summary of a logged payload: v2 reads only the block footer; v1 (JSON) is decoded. */
export function summarizeLogRecord(payload: Uint8Array): LogRecordSummary {
  if (payload.length === 0 || payload[0] !== V2_TAG) {
    const { datasetId, sysTime, batch } = decodeLogRecord(payload);
    return summarizeBatch(datasetId, sysTime, batch);
  }
  const { datasetId, sysTime, block } = splitV2(payload);
  const footer = readFooter(block);
  const rows = footer.rowCount;
  return {
    datasetId,
    sysTime,
    rows,
    minTime: rows > 0 && footer.minTime !== null ? footer.minTime : Number.POSITIVE_INFINITY,
    maxTime: rows > 0 && footer.maxTime !== null ? footer.maxTime : Number.NEGATIVE_INFINITY,
    fields: footer.columns.map((c) => ({ name: c.name, kind: c.kind })),
  };
}
