import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { encodeBlock } from '@quarry/block-format';
import { QuarryError } from '@quarry/common';
import {
  batchFromEvents,
  type Column,
  type ColumnBatch,
  type FieldValue,
  type NormalizedEvent,
  valueAt,
} from '@quarry/contracts';
import { decodeLogRecord, encodeLogRecord, encodeLogRecordV1 } from './log-codec';

/*
 * JSON-normalized values (no -0: JSON has none, so dynamic values lose it in a block as in the v1 record).
 * Strings are well-formed Unicode: UTF-8 has no lone surrogates.
 */
const json = fc.jsonValue().map((v) => JSON.parse(JSON.stringify(v)) as FieldValue);
const fieldValue: fc.Arbitrary<FieldValue> = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 8 }),
  fc.constantFrom('GET', 'POST'),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  json,
);
const event: fc.Arbitrary<NormalizedEvent> = fc.record({
  // Epoch ms with µs precision, as ingest produces; sub-µs values take the block's plain-f64 path.
  time: fc.oneof(
    fc.integer({ min: 0, max: 4e15 }).map((us) => us / 1000),
    fc.double({ min: -1e15, max: 1e15, noNaN: true }).filter((d) => !Object.is(d, -0)),
  ),
  fields: fc.dictionary(fc.string({ maxLength: 6 }), fieldValue, { maxKeys: 6 }),
});

/** Columns by name, string columns as codes and strings (the log keeps them as UTF-8, decoded on use). */
function plainColumns(batch: ColumnBatch): Map<string, Column> {
  const out = new Map<string, Column>();
  for (const [name, column] of [...batch.columns].sort())
    out.set(
      name,
      column.kind === 'string' ? { kind: 'string', codes: column.codes, dict: column.dict } : column,
    );
  return out;
}

describe('ingest log record codec', () => {
  it('v2 round trip: decoding gives the batch ingest built', () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 4e12 }),
        fc.string({ unit: 'grapheme', maxLength: 40 }),
        (events, sysTime, datasetId) => {
          const batch = batchFromEvents(events, sysTime);
          const decoded = decodeLogRecord(encodeLogRecord({ datasetId, sysTime, batch }));
          expect(decoded.datasetId).toBe(datasetId);
          expect(decoded.sysTime).toBe(sysTime);
          expect(decoded.batch.length).toBe(batch.length);
          expect(plainColumns(decoded.batch)).toEqual(plainColumns(batch));
        },
      ),
    );
  });

  it('v2 layout: header, dataset id, then the fast block, the same in shared memory', () => {
    fc.assert(
      fc.property(
        fc.array(event, { minLength: 1, maxLength: 10 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        fc.boolean(),
        (events, datasetId, shared) => {
          const batch = batchFromEvents(events, 1_700_000_000_000);
          const payload = encodeLogRecord({ datasetId, sysTime: 1_700_000_000_000, batch }, { shared });
          expect(payload.buffer instanceof SharedArrayBuffer).toBe(shared);
          const id = Buffer.from(datasetId, 'utf8');
          const head = Buffer.alloc(11);
          head[0] = 0x02;
          head.writeUInt16LE(id.length, 1);
          head.writeDoubleLE(1_700_000_000_000, 3);
          const block = encodeBlock(batch, { preset: 'fast' });
          expect(Buffer.from(payload)).toEqual(Buffer.concat([head, id, block]));
        },
      ),
    );
  });

  it('decodes v1 (JSON) records written by older versions into the same batch', () => {
    fc.assert(
      fc.property(fc.array(event, { minLength: 1, maxLength: 10 }), (events) => {
        const payload = encodeLogRecordV1({ v: 1, datasetId: 'd1', sysTime: 42, events });
        const decoded = decodeLogRecord(payload);
        expect([decoded.datasetId, decoded.sysTime]).toEqual(['d1', 42]);
        expect(decoded.batch).toEqual(batchFromEvents(JSON.parse(JSON.stringify(events)), 42));
      }),
    );
  });

  it('rejects unknown record versions and truncated v2 records with QuarryError', () => {
    const v2 = encodeLogRecord({
      datasetId: 'd',
      sysTime: 1,
      batch: batchFromEvents([{ time: 1, fields: {} }], 1),
    });
    const v3 = new TextEncoder().encode(JSON.stringify({ v: 3, datasetId: 'd', sysTime: 1, events: [] }));
    for (const payload of [
      new Uint8Array(0),
      Uint8Array.of(9, 1, 2),
      v3,
      v2.subarray(0, 5),
      v2.subarray(0, 30),
    ]) {
      expect(() => decodeLogRecord(payload)).toThrow(QuarryError);
    }
  });

  it('decodes a v2 record written before block format v2 (its body is a version-1 block)', () => {
    const dir = join(__dirname, 'fixtures');
    const payload = new Uint8Array(readFileSync(join(dir, 'log-record-v2-block-v1.bin')));
    const expected = JSON.parse(readFileSync(join(dir, 'log-record-v2-block-v1.expected.json'), 'utf8')) as {
      datasetId: string;
      sysTime: number;
      rowCount: number;
      columns: Record<string, { kind: string; values: unknown[] }>;
    };
    const decoded = decodeLogRecord(payload);
    expect([decoded.datasetId, decoded.sysTime, decoded.batch.length]).toEqual([
      expected.datasetId,
      expected.sysTime,
      expected.rowCount,
    ]);
    const actual: Record<string, { kind: string; values: unknown[] }> = {};
    for (const [name, column] of decoded.batch.columns) {
      actual[name] = {
        kind: column.kind,
        values: Array.from({ length: decoded.batch.length }, (_, i) => valueAt(column, i)),
      };
    }
    expect(actual).toEqual(expected.columns);
  });
});
