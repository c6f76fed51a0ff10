import { batchFromEvents, type NormalizedEvent } from '@quarry/contracts';
import { TailBuffer } from './tail-buffer';
import { addToTail } from './tail-testing';
import { encodeLogRecord, summarizeBatch } from './log-codec';

const event = (time: number, n: number) => ({ time, fields: { n } });
const rec = (offset: number, datasetId: string, sysTime: number, events: NormalizedEvent[]) =>
  [
    { partition: 0, offset },
    { datasetId, sysTime, batch: batchFromEvents(events, sysTime) },
  ] as const;

describe('TailBuffer', () => {
  it('keeps records per dataset with their time range and drops them once compacted', () => {
    const tail = new TailBuffer();
    addToTail(tail, ...rec(0, 'a', 5, [event(10, 1), event(30, 2)]));
    addToTail(tail, ...rec(1, 'b', 5, [event(20, 3)]));
    addToTail(tail, ...rec(2, 'a', 5, [event(40, 4)]));
    expect(tail.rows).toBe(4);
    expect(tail.snapshot('a').map((e) => [e.offset, e.minTime, e.maxTime])).toEqual([
      [0, 10, 30],
      [2, 40, 40],
    ]);

    tail.dropThrough(0, 1);
    expect(tail.snapshot('a').map((e) => e.offset)).toEqual([2]);
    expect(tail.snapshot('b')).toEqual([]);
    expect(tail.rows).toBe(1);
  });

  it('ignores a record the compactor already covered (late ingest continuation)', () => {
    const tail = new TailBuffer();
    tail.dropThrough(0, 5);
    addToTail(tail, ...rec(5, 'a', 1, [event(1, 1)]));
    addToTail(tail, ...rec(6, 'a', 1, [event(1, 1)]));
    expect(tail.snapshot('a').map((e) => e.offset)).toEqual([6]);
  });

  it('decodes a record added without its batch on first read, and keeps the decoded batch', () => {
    const tail = new TailBuffer();
    const [position, record] = rec(3, 'a', 7, [event(10, 1), event(20, 2)]);
    const payload = encodeLogRecord(record);
    tail.add(position, payload, summarizeBatch('a', 7, record.batch));
    const [entry] = tail.snapshot('a');
    expect(entry.batch).toBeNull();
    expect(entry.fields.map((f) => f.name).sort()).toEqual(['_sysTime', '_time', 'n']);
    const batch = TailBuffer.batchOf(entry);
    expect(batch).toEqual(record.batch);
    expect(TailBuffer.batchOf(entry)).toBe(batch);
  });

  it('hands out the batch it was given', () => {
    const tail = new TailBuffer();
    const added = rec(3, 'a', 7, [event(10, 1)]);
    addToTail(tail, ...added);
    expect(TailBuffer.batchOf(tail.snapshot('a')[0])).toBe(added[1].batch);
  });

  it('counts the bytes of the records it holds (the compaction priority bound)', () => {
    const tail = new TailBuffer();
    const sizes = [0, 1, 2].map((offset) => {
      const [position, record] = rec(offset, offset === 1 ? 'b' : 'a', 1, [event(offset, offset)]);
      const payload = encodeLogRecord(record);
      tail.add(position, payload, summarizeBatch(record.datasetId, 1, record.batch));
      return payload.byteLength;
    });
    expect(tail.bytes).toBe(sizes[0] + sizes[1] + sizes[2]);
    tail.dropThrough(0, 0);
    expect(tail.bytes).toBe(sizes[1] + sizes[2]);
    tail.dropDataset('b');
    expect(tail.bytes).toBe(sizes[2]);
  });

  it('drops a deleted dataset', () => {
    const tail = new TailBuffer();
    addToTail(tail, ...rec(0, 'a', 1, [event(1, 1)]));
    tail.dropDataset('a');
    expect(tail.rows).toBe(0);
    expect(tail.bytes).toBe(0);
    expect(tail.snapshot('a')).toEqual([]);
  });
});
