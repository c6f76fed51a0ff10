import { Metastore } from '@quarry/metastore';
import { Lease } from './lease';

/** The merge lease: one holder at a time, renewed by it, taken over only once it expired. */
describe('Lease', () => {
  let metastore: Metastore;
  beforeAll(async () => {
    metastore = await Metastore.open(null);
  }, 60_000);
  afterAll(async () => {
    await metastore?.close();
  });

  it('lets one node hold it, renews it for the holder, and hands it over after expiry or release', async () => {
    const a = new Lease(metastore, 'merger-test', 'node-a', 300);
    const b = new Lease(metastore, 'merger-test', 'node-b', 300);
    expect(await a.hold()).toBe(true);
    expect(await b.hold()).toBe(false);
    expect(await a.hold()).toBe(true); // renewed
    expect(await metastore.cluster.leaseHolder('merger-test')).toBe('node-a');
    await new Promise((r) => setTimeout(r, 450)); // a stopped renewing
    expect(await b.hold()).toBe(true);
    expect(await a.hold()).toBe(false);
    expect(a.isHeld).toBe(false);
    await b.release();
    expect(await metastore.cluster.leaseHolder('merger-test')).toBeNull();
    expect(await a.hold()).toBe(true);
  });
});
