import { TailBuffer } from './tail-buffer';

const event = (time: number, n: number) => ({ time, fields: { n } });

describe('TailBuffer', () => {
  it('keeps records per dataset with their time range and drops them once compacted', () => {
    const tail = new TailBuffer();
    tail.add({ partition: 0, offset: 0, datasetId: 'a', sysTime: 5, events: [event(10, 1), event(30, 2)] });
    tail.add({ partition: 0, offset: 1, datasetId: 'b', sysTime: 5, events: [event(20, 3)] });
    tail.add({ partition: 0, offset: 2, datasetId: 'a', sysTime: 5, events: [event(40, 4)] });
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
    tail.add({ partition: 0, offset: 5, datasetId: 'a', sysTime: 1, events: [event(1, 1)] });
    tail.add({ partition: 0, offset: 6, datasetId: 'a', sysTime: 1, events: [event(1, 1)] });
    expect(tail.snapshot('a').map((e) => e.offset)).toEqual([6]);
  });

  it('builds a column batch once per record', () => {
    const tail = new TailBuffer();
    tail.add({ partition: 0, offset: 0, datasetId: 'a', sysTime: 7, events: [event(10, 1), event(20, 2)] });
    const [entry] = tail.snapshot('a');
    const batch = TailBuffer.batchOf(entry);
    expect(batch.length).toBe(2);
    expect([...batch.columns.keys()].sort()).toEqual(['_sysTime', '_time', 'n']);
    expect(TailBuffer.batchOf(entry)).toBe(batch);
  });

  it('drops a deleted dataset', () => {
    const tail = new TailBuffer();
    tail.add({ partition: 0, offset: 0, datasetId: 'a', sysTime: 1, events: [event(1, 1)] });
    tail.dropDataset('a');
    expect(tail.rows).toBe(0);
    expect(tail.snapshot('a')).toEqual([]);
  });
});
