import { batchFromEvents, type NormalizedEvent } from '@quarry/contracts';
import { TailBuffer } from './tail-buffer';

const event = (time: number, n: number) => ({ time, fields: { n } });
const rec = (offset: number, datasetId: string, sysTime: number, events: NormalizedEvent[]) => ({
  partition: 0,
  offset,
  datasetId,
  sysTime,
  batch: batchFromEvents(events, sysTime),
});

describe('TailBuffer', () => {
  it('keeps records per dataset with their time range and drops them once compacted', () => {
    const tail = new TailBuffer();
    tail.add(rec(0, 'a', 5, [event(10, 1), event(30, 2)]));
    tail.add(rec(1, 'b', 5, [event(20, 3)]));
    tail.add(rec(2, 'a', 5, [event(40, 4)]));
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
    tail.add(rec(5, 'a', 1, [event(1, 1)]));
    tail.add(rec(6, 'a', 1, [event(1, 1)]));
    expect(tail.snapshot('a').map((e) => e.offset)).toEqual([6]);
  });

  it('keeps the record batch for queries and finds it by log position until compacted', () => {
    const tail = new TailBuffer();
    const added = rec(3, 'a', 7, [event(10, 1), event(20, 2)]);
    tail.add(added);
    const [entry] = tail.snapshot('a');
    const batch = TailBuffer.batchOf(entry);
    expect(batch).toBe(added.batch);
    expect([...batch.columns.keys()].sort()).toEqual(['_sysTime', '_time', 'n']);
    expect(tail.at(0, 3)).toBe(entry);
    expect(tail.at(0, 4)).toBeUndefined();
    expect(tail.at(1, 3)).toBeUndefined();
    tail.dropThrough(0, 3);
    expect(tail.at(0, 3)).toBeUndefined();
  });

  it('drops a deleted dataset', () => {
    const tail = new TailBuffer();
    tail.add(rec(0, 'a', 1, [event(1, 1)]));
    tail.dropDataset('a');
    expect(tail.rows).toBe(0);
    expect(tail.at(0, 0)).toBeUndefined();
    expect(tail.snapshot('a')).toEqual([]);
  });
});
