import { isQuarryError } from '@quarry/common';
import { MemoryIngestLog, type LogRecord } from '@quarry/log';
import { LogFollower, type FollowableLog } from './log-follower';

/** A memory log that can say where it ends (Kafka's high watermarks), like the cluster's follower logs. */
function followable(): MemoryIngestLog & FollowableLog {
  const log = new MemoryIngestLog() as MemoryIngestLog & FollowableLog;
  log.fetchEndOffsets = async () => new Map([[0, log.endOffset(0)]]);
  return log;
}

const bytes = (s: string) => new TextEncoder().encode(s);

describe('LogFollower', () => {
  let follower: LogFollower | null = null;
  afterEach(async () => {
    await follower?.stop();
    follower = null;
  });

  it('hands over every record from the start offset, in order, and catches up with the end on request', async () => {
    const log = followable();
    await log.append('k', [bytes('a'), bytes('b'), bytes('c')]);
    const seen: string[] = [];
    follower = new LogFollower(
      'events',
      log,
      () => 1,
      (r: LogRecord) => seen.push(new TextDecoder().decode(r.payload)),
    );
    follower.start();
    await follower.catchUp(await log.fetchEndOffsets(), 5_000);
    expect(seen).toEqual(['b', 'c']); // offset 0 was compacted before the node started
    await log.append('k', [bytes('d')]);
    // Read-your-writes: once catchUp resolves, the record acknowledged before it is handed over.
    await follower.catchUp(await log.fetchEndOffsets(), 5_000);
    expect(seen).toEqual(['b', 'c', 'd']);
    expect(follower.records).toBe(3);
  });

  it('jumps ahead when compaction passed it (the start offset moved) instead of reading what blocks hold', async () => {
    const log = followable();
    await log.append('k', [bytes('a'), bytes('b'), bytes('c'), bytes('d')]);
    let start = 0;
    const seen: number[] = [];
    follower = new LogFollower(
      'events',
      log,
      () => start,
      (r) => seen.push(r.offset),
    );
    start = 3;
    follower.start();
    await follower.catchUp(await log.fetchEndOffsets(), 5_000);
    expect(seen).toEqual([3]);
    expect(follower.position(0)).toBe(4);
  });

  it('answers 503 (unavailable, with Retry-After) when it cannot catch up in time, naming the lag', async () => {
    const log = followable();
    await log.append('k', [bytes('a')]);
    // A log whose reads fail (brokers gone): the follower keeps trying, the query gives up in time.
    jest.spyOn(log, 'read').mockRejectedValue(new Error('brokers unreachable'));
    follower = new LogFollower(
      'events',
      log,
      () => 0,
      () => undefined,
    );
    follower.start();
    const started = Date.now();
    const err = await follower.catchUp(new Map([[0, 1]]), 300).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(isQuarryError(err) && err.kind).toBe('unavailable');
    expect(err).toMatchObject({ code: 'read_your_writes_timeout', retryAfterSeconds: 2 });
    expect((err as Error).message).toMatch(/partition 0: 1 records behind.*brokers unreachable/);
  });
});
