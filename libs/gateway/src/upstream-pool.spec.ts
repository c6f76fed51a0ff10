import { UpstreamPool } from './upstream-pool';
import { closedPortUrl, FakeUpstream } from './testing/fake-upstream';

const quiet = { info: () => undefined, warn: () => undefined };

function poolOf(...origins: string[]): UpstreamPool {
  const pool = new UpstreamPool('query', origins, 60_000, quiet);
  for (const member of pool.members) member.healthy = true;
  return pool;
}

describe('UpstreamPool', () => {
  it('takes members in turn when they are equally busy', () => {
    const pool = poolOf('http://a', 'http://b', 'http://c');
    expect(Array.from({ length: 6 }, () => pool.pick()!.origin)).toEqual([
      'http://a',
      'http://b',
      'http://c',
      'http://a',
      'http://b',
      'http://c',
    ]);
  });

  it('prefers the member with the fewest requests in flight, and skips excluded and unhealthy ones', () => {
    const pool = poolOf('http://a', 'http://b', 'http://c');
    const [a, b, c] = pool.members;
    a.inFlight = 3;
    b.inFlight = 1;
    c.inFlight = 2;
    expect(pool.pick()).toBe(b);
    expect(pool.pick(new Set([b]))).toBe(c);
    c.healthy = false;
    expect(pool.pick(new Set([b]))).toBe(a);
    expect(pool.pick(new Set([a, b]))).toBeUndefined();
  });

  it('takes a member out after a failed connection, but never the last healthy one', () => {
    const pool = poolOf('http://a', 'http://b');
    const [a, b] = pool.members;
    pool.reportConnectionFailure(a, 'refused');
    expect([a.healthy, pool.healthyCount]).toEqual([false, 1]);
    pool.reportConnectionFailure(b, 'refused');
    expect([b.healthy, pool.healthyCount]).toEqual([true, 1]);
  });

  it('starts with the members whose /readyz answered 200', async () => {
    const [up, notReady] = await Promise.all([FakeUpstream.start('up'), FakeUpstream.start('not-ready')]);
    notReady.ready = false;
    const pool = new UpstreamPool('ingest', [up.url, notReady.url, await closedPortUrl()], 60_000, quiet);
    try {
      await pool.start();
      expect(pool.members.map((m) => m.healthy)).toEqual([true, false, false]);
      expect(pool.members[1].lastProblem).toBe('/readyz answered 503');
      expect(pool.members[2].lastProblem).toMatch(/ECONNREFUSED/);
    } finally {
      await pool.stop();
      await Promise.all([up.close(), notReady.close()]);
    }
  });
});
