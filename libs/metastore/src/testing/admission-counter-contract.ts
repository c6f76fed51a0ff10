/**
 * The shared admission counters (table `admission_counters`, cluster-wide rate limits and quotas), run
 * against every `SqlDatabase` backend like the metastore contract. Not part of the build: it uses jest
 * globals.
 */
import { Metastore } from '../metastore';
import type { SqlDatabaseFactory } from './metastore-contract';

export function admissionCounterContract(factory: SqlDatabaseFactory): void {
  describe(`admission counters on ${factory.name}`, () => {
    let store: Metastore;

    beforeAll(async () => {
      store = await Metastore.over(await factory.open());
    });
    afterAll(async () => {
      await store?.close();
    });
    beforeEach(async () => {
      await store.db.exec('TRUNCATE admission_counters');
    });

    const row = (subject: string, delta: number, windowStartMs = 60_000, counter = 'requests/60000') => ({
      counter,
      subject,
      windowStartMs,
      windowEndMs: windowStartMs + 60_000,
      delta,
    });

    it('adds deltas and returns the totals, creating rows on first use', async () => {
      expect(await store.admissionCounters.add([row('a', 3), row('b', 0)])).toEqual(
        expect.arrayContaining([
          { counter: 'requests/60000', subject: 'a', windowStartMs: 60_000, used: 3 },
          { counter: 'requests/60000', subject: 'b', windowStartMs: 60_000, used: 0 },
        ]),
      );
      const second = await store.admissionCounters.add([row('a', 4)]);
      expect(second).toEqual([{ counter: 'requests/60000', subject: 'a', windowStartMs: 60_000, used: 7 }]);
      // A delta of 0 reads the total without changing it.
      expect((await store.admissionCounters.add([row('a', 0)]))[0].used).toBe(7);
    });

    it('keeps counters, subjects and windows apart, and merges a key given twice in one call', async () => {
      const totals = await store.admissionCounters.add([
        row('a', 1),
        row('a', 2),
        row('a', 10, 120_000),
        row('a', 100, 60_000, 'ingest_bytes/86400000'),
      ]);
      const byKey = new Map(totals.map((t) => [`${t.counter}|${t.windowStartMs}`, t.used]));
      expect(byKey).toEqual(
        new Map([
          ['requests/60000|60000', 3],
          ['requests/60000|120000', 10],
          ['ingest_bytes/86400000|60000', 100],
        ]),
      );
    });

    it('loses no addition when many nodes add to one row at once', async () => {
      // Ten "nodes", each adding 1..20 twenty times, concurrently: the total is exact.
      const adds: Promise<unknown>[] = [];
      for (let node = 0; node < 10; node++)
        for (let i = 1; i <= 20; i++) adds.push(store.admissionCounters.add([row('hot', i)]));
      await Promise.all(adds);
      const [total] = await store.admissionCounters.add([row('hot', 0)]);
      expect(total.used).toBe(10 * ((20 * 21) / 2));
    });

    it('counts amounts past 2^31 (bytes of a month)', async () => {
      await store.admissionCounters.add([row('big', 3_000_000_000)]);
      const [total] = await store.admissionCounters.add([row('big', 3_000_000_000)]);
      expect(total.used).toBe(6_000_000_000);
    });

    it('deletes the rows of ended windows only', async () => {
      await store.admissionCounters.add([row('a', 1, 0), row('a', 1, 60_000), row('a', 1, 120_000)]);
      expect(await store.admissionCounters.deleteEnded(120_000)).toBe(2);
      expect(await store.admissionCounters.count()).toBe(1);
      expect(await store.admissionCounters.deleteEnded(120_000)).toBe(0);
      const [kept] = await store.admissionCounters.add([row('a', 0, 120_000)]);
      expect(kept.used).toBe(1);
    });
  });
}
