import {
  defaultControllerRateLimiter,
  ItemExponentialBackoff,
  MaxOfRateLimiter,
  TokenBucketRateLimiter,
} from './rate-limiter';
import { WorkQueue } from './work-queue';

/** Everything `get` can hand out right now, each marked processing (none are `done`). */
async function drainNow(queue: WorkQueue): Promise<string[]> {
  const keys: string[] = [];
  while (queue.depth > 0) keys.push((await queue.get())!);
  return keys;
}

describe('WorkQueue', () => {
  it.each([
    {
      name: 'queues a key once however often it is added',
      adds: ['a', 'b', 'a', 'a'],
      handedOut: ['a', 'b'],
    },
    { name: 'keeps first-added order', adds: ['c', 'a', 'b'], handedOut: ['c', 'a', 'b'] },
  ])('$name', async ({ adds, handedOut }) => {
    const queue = new WorkQueue();
    for (const key of adds) queue.add(key);
    expect(queue.depth).toBe(handedOut.length);
    expect(await drainNow(queue)).toEqual(handedOut);
  });

  it('never hands out a key being processed; a re-add marks it dirty and done queues it again', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    const first = await queue.get();
    queue.add('a');
    queue.add('a');
    expect(queue.depth).toBe(0); // not queued while processing
    expect(queue.inFlight).toBe(1);
    queue.done(first!);
    expect(queue.depth).toBe(1); // exactly once more
    expect(await queue.get()).toBe('a');
    queue.done('a');
    expect(queue.depth).toBe(0);
  });

  it('wakes a waiting getter when a key arrives', async () => {
    const queue = new WorkQueue();
    const waiting = queue.get();
    queue.add('late');
    await expect(waiting).resolves.toBe('late');
  });

  it('lets two workers process different keys but never the same key at once', async () => {
    const queue = new WorkQueue();
    const active = new Set<string>();
    const overlaps: string[] = [];
    const processed: string[] = [];
    const worker = async () => {
      for (let key = await queue.get(); key !== undefined; key = await queue.get()) {
        if (active.has(key)) overlaps.push(key);
        active.add(key);
        await new Promise((resolve) => setImmediate(resolve));
        if (processed.length < 6) queue.add(key); // a change arrives mid-reconcile
        processed.push(key);
        active.delete(key);
        queue.done(key);
      }
    };
    queue.add('a');
    queue.add('b');
    const workers = [worker(), worker()];
    while (processed.length < 8 && (queue.depth > 0 || queue.inFlight > 0))
      await new Promise((r) => setImmediate(r));
    await queue.shutdownWithDrain();
    await Promise.all(workers);
    expect(overlaps).toEqual([]);
    expect(processed.filter((k) => k === 'a').length).toBeGreaterThan(1);
    expect(processed.filter((k) => k === 'b').length).toBeGreaterThan(1);
  });

  describe('delays', () => {
    beforeEach(() => jest.useFakeTimers());
    afterEach(() => jest.useRealTimers());

    it('adds after the delay, keeping the earliest of several pending delays', () => {
      const queue = new WorkQueue();
      queue.addAfter('a', 1_000);
      queue.addAfter('a', 5_000); // later: ignored
      queue.addAfter('b', 5_000);
      queue.addAfter('b', 2_000); // sooner: replaces
      expect(queue.delayedCount).toBe(2);
      jest.advanceTimersByTime(999);
      expect(queue.depth).toBe(0);
      jest.advanceTimersByTime(1);
      expect(queue.depth).toBe(1);
      jest.advanceTimersByTime(1_000);
      expect(queue.depth).toBe(2);
      jest.advanceTimersByTime(10_000);
      expect(queue.depth).toBe(2); // the replaced timers never fire
    });

    it('adds at once for a delay of zero or less', () => {
      const queue = new WorkQueue();
      queue.addAfter('a', 0);
      queue.addAfter('b', -5);
      expect(queue.depth).toBe(2);
    });

    it('backs a key off exponentially on rate-limited adds until forget resets it', async () => {
      const queue = new WorkQueue({
        rateLimiter: new ItemExponentialBackoff({ baseDelayMs: 1_000, maxDelayMs: 8_000 }),
      });
      const delays: number[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        const before = Date.now();
        queue.addRateLimited('a');
        while (queue.depth === 0) jest.advanceTimersByTime(100);
        delays.push(Date.now() - before);
        queue.done((await queue.get())!);
      }
      expect(delays).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000]);
      expect(queue.numRequeues('a')).toBe(6);
      expect(queue.totalRetries).toBe(6);
      queue.forget('a');
      expect(queue.numRequeues('a')).toBe(0);
      queue.addRateLimited('a');
      jest.advanceTimersByTime(1_000);
      expect(queue.depth).toBe(1);
    });

    it('drops pending delays and ignores adds after shutdown', async () => {
      const queue = new WorkQueue();
      queue.addAfter('delayed', 1_000);
      queue.add('queued');
      queue.shutdown();
      queue.add('too-late');
      queue.addRateLimited('too-late');
      jest.advanceTimersByTime(5_000);
      expect(await queue.get()).toBe('queued'); // what was queued is still handed out
      expect(await queue.get()).toBeUndefined();
    });
  });

  it('resolves idle getters with undefined on shutdown', async () => {
    const queue = new WorkQueue();
    const idle = [queue.get(), queue.get()];
    queue.shutdown();
    await expect(Promise.all(idle)).resolves.toEqual([undefined, undefined]);
  });

  it('drains: shutdownWithDrain waits until every handed-out key is done', async () => {
    const queue = new WorkQueue();
    queue.add('a');
    const key = await queue.get();
    let drained = false;
    const draining = queue.shutdownWithDrain().then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    queue.done(key!);
    await draining;
    expect(drained).toBe(true);
  });
});

describe('ItemExponentialBackoff', () => {
  it.each([
    { failures: 1, delay: 1_000 },
    { failures: 2, delay: 2_000 },
    { failures: 9, delay: 256_000 },
    { failures: 10, delay: 300_000 },
    { failures: 2_000, delay: 300_000 },
  ])('defaults to 1 s doubling to 5 min: failure $failures waits $delay ms', ({ failures, delay }) => {
    const limiter = new ItemExponentialBackoff<string>();
    let last = 0;
    for (let i = 0; i < failures; i++) last = limiter.when('k');
    expect(last).toBe(delay);
  });

  it('keeps keys apart and takes up to the jitter fraction off', () => {
    const limiter = new ItemExponentialBackoff<string>({ jitter: 0.1, random: () => 1 });
    expect(limiter.when('a')).toBe(900);
    expect(limiter.when('a')).toBe(1_800);
    expect(limiter.when('b')).toBe(900);
  });
});

describe('TokenBucketRateLimiter', () => {
  it('lets a burst through at once, then spaces retries at the rate, refilling over time', () => {
    let now = 0;
    const bucket = new TokenBucketRateLimiter<string>({ qps: 10, burst: 3, now: () => now });
    expect(['a', 'b', 'c'].map((key) => bucket.when(key))).toEqual([0, 0, 0]);
    expect(bucket.when('d')).toBeCloseTo(100);
    expect(bucket.when('e')).toBeCloseTo(200);
    now = 1_000; // 10 tokens refilled, capped at the burst, minus the two already owed
    expect(bucket.when('f')).toBe(0);
  });
});

describe('MaxOfRateLimiter', () => {
  it('waits for the slowest limiter and forgets in all of them', () => {
    let now = 0;
    const limiter = new MaxOfRateLimiter<string>(
      new ItemExponentialBackoff({ baseDelayMs: 10 }),
      new TokenBucketRateLimiter({ qps: 1, burst: 1, now: () => now }),
    );
    expect(limiter.when('a')).toBe(10); // backoff 10 ms, bucket has a token
    expect(limiter.when('a')).toBeCloseTo(1_000); // bucket empty: 1 s beats 20 ms
    expect(limiter.numRequeues('a')).toBe(2);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    now = 10_000;
    expect(limiter.when('a')).toBe(10);
  });

  it('is the default: per-key backoff from 1 s', () => {
    const limiter = defaultControllerRateLimiter<string>();
    expect([limiter.when('a'), limiter.when('a'), limiter.when('b')]).toEqual([1_000, 2_000, 1_000]);
  });
});
