import { Metastore } from './metastore';
import { PgliteDatabase } from './pglite-database.adapter';
import { ManualClock } from './testing/metastore-contract';

// Opening PGlite takes seconds on a cold process (initdb).
jest.setTimeout(60_000);

describe('alert repository on in-memory PGlite', () => {
  let a: Metastore;
  let b: Metastore;
  const clock = new ManualClock();

  beforeAll(async () => {
    a = await Metastore.over(await PgliteDatabase.open(null), { clock });
    b = a; // two callers of one database: the claim is what tells them apart
  });
  afterAll(async () => {
    await a?.close();
  });

  const end = '2024-05-01T12:00:00.000Z';

  it('lets exactly one node claim an interval, and a stale claim be taken over', async () => {
    expect(await a.alerts.claimRun('mon_1', end, 'node-a', 60_000)).toBe(true);
    expect(await b.alerts.claimRun('mon_1', end, 'node-b', 60_000)).toBe(false);
    clock.advance(61_000);
    expect(await b.alerts.claimRun('mon_1', end, 'node-b', 60_000)).toBe(true);
    await b.alerts.finishRun('mon_1', end, 'done');
    clock.advance(600_000);
    expect(await a.alerts.claimRun('mon_1', end, 'node-a', 60_000)).toBe(false);
    expect(await a.alerts.runStatus('mon_1', end)).toBe('done');
  });

  it('claims concurrently exactly once', async () => {
    const results = await Promise.all(
      ['n1', 'n2', 'n3', 'n4'].map((node) => a.alerts.claimRun('mon_2', end, node, 60_000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it('saves state only at the expected version', async () => {
    expect(await a.alerts.loadState('mon_3')).toBeNull();
    expect(await a.alerts.saveState('mon_3', { n: 1 }, 0)).toBe(true);
    expect(await a.alerts.saveState('mon_3', { n: 2 }, 0)).toBe(false);
    expect(await a.alerts.saveState('mon_3', { n: 2 }, 1)).toBe(true);
    expect(await a.alerts.saveState('mon_3', { n: 3 }, 1)).toBe(false);
    expect(await a.alerts.loadState('mon_3')).toEqual({ state: { n: 2 }, version: 2 });
  });

  it('serves history within a time range, oldest first, and forgets a deleted monitor', async () => {
    const entry = (state: 'open' | 'closed', timestamp: string) => ({
      monitorId: 'mon_4',
      checkId: 'mon_4',
      name: 'm',
      state,
      timestamp,
    });
    await a.alerts.appendHistory([entry('open', '2024-05-01T10:00:00.000Z')]);
    await a.alerts.appendHistory([entry('closed', '2024-05-01T11:00:00.000Z')]);
    const all = await a.alerts.history('mon_4', '2024-05-01T00:00:00Z', '2024-05-02T00:00:00Z');
    expect(all.map((e) => e.state)).toEqual(['open', 'closed']);
    const later = await a.alerts.history('mon_4', '2024-05-01T10:30:00Z', '2024-05-02T00:00:00Z');
    expect(later).toEqual([entry('closed', '2024-05-01T11:00:00.000Z')]);
    await a.alerts.deleteMonitor('mon_4');
    expect(await a.alerts.history('mon_4', '2024-05-01T00:00:00Z', '2024-05-02T00:00:00Z')).toEqual([]);
  });
});
