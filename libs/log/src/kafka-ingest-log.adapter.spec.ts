import { isQuarryError } from '@quarry/common';
import { MockKafkaCluster, mockKafkaAvailability } from '@quarry/local-cluster';
import { Kafka, logLevel } from 'kafkajs';
import { ingestLogContract, type IngestLogHarness, type IngestLogTraits } from './ingest-log.contract';
import { resolveKafkaLogOptions, type KafkaLogOptions } from './kafka-config';
import { KafkaIngestLog } from './kafka-ingest-log.adapter';
import { PartitionReader } from './kafka-partition-reader';

/**
 * The IngestLog contract and the Kafka-specific behaviour against librdkafka's mock cluster (built from
 * libs/local-cluster/native/mockkafka.c), and against a real broker when `QUARRY_TEST_KAFKA_BROKERS` is
 * set. Without gcc/librdkafka-dev the mock suites are skipped locally; under CI=true that is a failure.
 */
jest.setTimeout(60_000);

const availability = mockKafkaAvailability();
const inCi = process.env.CI === 'true' || process.env.CI === '1';
const realBrokers = process.env.QUARRY_TEST_KAFKA_BROKERS?.split(',').filter(Boolean);
const PARTITIONS = 3;
const KAFKA_TRAITS: IngestLogTraits = {
  partitions: PARTITIONS,
  persistent: true,
  concurrentInstances: true,
};

const bytes = (s: string) => new TextEncoder().encode(s);
const text = (b: Uint8Array) => new TextDecoder().decode(b);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Where a suite's topics live: the mock cluster, or a real broker. */
interface KafkaTarget {
  name: string;
  brokers(): string[];
  createTopic(topic: string, partitions: number): Promise<void>;
  /** Timeouts suited to the target (a real broker refuses session timeouts below 6 s). */
  options: Partial<KafkaLogOptions>;
  setUp(): Promise<void>;
  tearDown(): Promise<void>;
}

function mockTarget(): KafkaTarget {
  let cluster: MockKafkaCluster | undefined;
  return {
    name: 'the librdkafka mock cluster',
    brokers: () => cluster!.brokers,
    createTopic: (topic, partitions) =>
      cluster!.createTopic({ name: topic, partitions, replicationFactor: 3 }),
    // The mock waits sessionTimeout - 1 s for members to rejoin during a rebalance: keep it short.
    options: { sessionTimeoutMs: 3_000, heartbeatIntervalMs: 500 },
    setUp: async () => {
      cluster = await MockKafkaCluster.start({ brokers: 3 });
    },
    tearDown: async () => {
      await cluster?.stop();
    },
  };
}

function realTarget(brokers: string[]): KafkaTarget {
  const admin = new Kafka({ clientId: 'quarry-log-spec-admin', brokers, logLevel: logLevel.NOTHING }).admin();
  const created: string[] = [];
  return {
    name: `Kafka at ${brokers.join(',')}`,
    brokers: () => brokers,
    createTopic: async (topic, partitions) => {
      // The test creates its own topics; the adapter never does (operators own topic settings).
      await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
      created.push(topic);
    },
    options: { sessionTimeoutMs: 10_000, heartbeatIntervalMs: 1_000 },
    setUp: () => admin.connect(),
    tearDown: async () => {
      await admin.deleteTopics({ topics: created }).catch(() => undefined);
      await admin.disconnect();
    },
  };
}

const baseOptions = (target: KafkaTarget, topic: string): KafkaLogOptions => ({
  brokers: target.brokers(),
  topic,
  clientId: 'quarry-log-spec',
  logLevel: 'nothing',
  connectionTimeoutMs: 1_000,
  requestTimeoutMs: 3_000,
  fetchMaxWaitMs: 100,
  readWaitMs: 2_000,
  ...target.options,
});

let topicCounter = 0;
const freshTopic = (prefix: string) =>
  `${prefix}-${process.pid}-${Date.now().toString(36)}-${topicCounter++}`;

async function waitFor(what: string, condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

/** Reads `count` records of `partition` from `from`, retrying empty reads (records not fetched yet). */
async function readN(log: KafkaIngestLog, partition: number, from: number, count: number) {
  const out: { offset: number; text: string }[] = [];
  const deadline = Date.now() + 15_000;
  while (out.length < count) {
    const batch = await log.read(partition, from + out.length, count - out.length);
    for (const r of batch) out.push({ offset: r.offset, text: text(r.payload) });
    if (batch.length > 0) continue;
    if (Date.now() > deadline) throw new Error(`read ${out.length} of ${count}`);
    await sleep(10); // not fetched yet (or not known to this reader): let the consumer run
  }
  return out;
}

/** The contract over fresh topics. Group joins take ~3 s on the mock, so logs are opened ahead, a few at a time. */
function kafkaContract(target: KafkaTarget): void {
  describe(`KafkaIngestLog on ${target.name}`, () => {
    const AHEAD = 4;
    const prepared: Promise<{ options: KafkaLogOptions; log: KafkaIngestLog }>[] = [];
    const prepare = () => {
      const opening = (async () => {
        const topic = freshTopic('contract');
        await target.createTopic(topic, PARTITIONS);
        const options = { ...baseOptions(target, topic), groupId: `group-${topic}` };
        return { options, log: await KafkaIngestLog.open(options) };
      })();
      opening.catch(() => undefined); // observed when taken, or drained in afterAll
      prepared.push(opening);
    };

    beforeAll(() => target.setUp());
    afterAll(async () => {
      const leftovers = await Promise.allSettled(prepared.splice(0));
      await Promise.all(leftovers.map((r) => (r.status === 'fulfilled' ? r.value.log.close() : undefined)));
      await target.tearDown();
    });

    ingestLogContract(
      `KafkaIngestLog on ${target.name}`,
      async () => {
        while (prepared.length < AHEAD + 1) prepare();
        const { options, log } = await prepared.shift()!;
        const others: KafkaIngestLog[] = [];
        const h: IngestLogHarness = {
          log,
          reopen: async () => {
            await h.log.close();
            return KafkaIngestLog.open(options);
          },
          openAnother: async () => {
            const other = await KafkaIngestLog.open({
              ...options,
              groupId: `${options.groupId}-${others.length}`,
            });
            others.push(other);
            return other;
          },
          cleanup: async () => {
            await Promise.all(others.map((o) => o.close()));
          },
        };
        return h;
      },
      KAFKA_TRAITS,
    );
  });
}

/** Kafka-specific behaviour that holds on any broker. */
function kafkaBehaviour(target: KafkaTarget): void {
  describe(`KafkaIngestLog specifics on ${target.name}`, () => {
    const open: KafkaIngestLog[] = [];
    const openLog = async (options: KafkaLogOptions) => {
      const log = await KafkaIngestLog.open(options);
      open.push(log);
      return log;
    };
    const topicWith = async (partitions: number) => {
      const topic = freshTopic('specific');
      await target.createTopic(topic, partitions);
      return baseOptions(target, topic);
    };

    beforeAll(() => target.setUp());
    afterEach(async () => {
      await Promise.all(open.splice(0).map((log) => log.close()));
    });
    afterAll(() => target.tearDown());

    it('spreads one hot key over every partition, round-robin, and fetchEndOffsets counts the appends', async () => {
      const log = await openLog(await topicWith(PARTITIONS));
      expect(log.partitions()).toEqual([0, 1, 2]); // producer-only: every partition
      const partitions: number[] = [];
      for (let i = 0; i < 9; i++) {
        const positions = await log.append('hot-dataset', [bytes(`a${i}`), bytes(`b${i}`)]);
        expect(positions[1]).toEqual({ partition: positions[0].partition, offset: positions[0].offset + 1 });
        partitions.push(positions[0].partition);
      }
      for (let i = 1; i < partitions.length; i++)
        expect(partitions[i]).toBe((partitions[i - 1] + 1) % PARTITIONS);
      const ends = await log.fetchEndOffsets();
      expect([...ends].sort(([a], [b]) => a - b)).toEqual([
        [0, 6],
        [1, 6],
        [2, 6],
      ]);
      for (const p of [0, 1, 2]) expect(log.endOffset(p)).toBe(6);
      expect(log.stats()).toMatchObject({
        failed: false,
        appendedRecords: 18,
        appendedBytes: 36,
        produceErrors: 0,
      });
    });

    it('refuses a payload above maxMessageBytes with too_large, writing nothing of the append', async () => {
      const log = await openLog({ ...(await topicWith(PARTITIONS)), maxMessageBytes: 1_000 });
      const err = await log
        .append('k', [bytes('small'), new Uint8Array(950), bytes('small')])
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'too_large', code: 'log_record_too_large' });
      expect(String((err as Error).message)).toMatch(/1000 bytes/);
      expect([...(await log.fetchEndOffsets()).values()]).toEqual([0, 0, 0]);
      // Just under the limit with the key and the per-record overhead: accepted.
      expect(await log.append('k', [new Uint8Array(1_000 - 100 - 1)])).toHaveLength(1);
    });

    it('splits an append over the limit into batches on successive partitions and reads all of it back', async () => {
      const options = await topicWith(PARTITIONS);
      const writer = await openLog({ ...options, maxMessageBytes: 2_000 });
      const payloads = Array.from({ length: 10 }, (_, i) => bytes(`${i}`.padEnd(500, '.')));
      const positions = await writer.append('k', payloads);
      // 601 bytes a record with key and overhead: batches of 3, 3, 3, 1, each one partition, consecutive.
      const batches = [
        positions.slice(0, 3),
        positions.slice(3, 6),
        positions.slice(6, 9),
        positions.slice(9),
      ];
      for (const batch of batches) {
        for (let i = 1; i < batch.length; i++) {
          expect(batch[i]).toEqual({ partition: batch[0].partition, offset: batch[i - 1].offset + 1 });
        }
      }
      const used = batches.map((b) => b[0].partition);
      for (let i = 1; i < used.length; i++) expect(used[i]).toBe((used[i - 1] + 1) % PARTITIONS);

      const reader = await openLog({ ...options, groupId: freshTopic('reader') });
      for (const [i, position] of positions.entries()) {
        const [record] = await readN(reader, position.partition, position.offset, 1);
        expect(record).toEqual({ offset: position.offset, text: text(payloads[i]) });
      }
    });

    it('splits the partitions among the members of a group and hands them over when one leaves', async () => {
      const options = { ...(await topicWith(PARTITIONS)), groupId: freshTopic('compactors') };
      const a = await openLog(options);
      expect(a.partitions()).toEqual([0, 1, 2]);
      const seenByA: number[][] = [];
      a.onAssignment((partitions) => seenByA.push(partitions));
      const b = await openLog(options);
      const seenByB: number[][] = [];
      b.onAssignment((partitions) => seenByB.push(partitions));
      await waitFor('the rebalance', () => {
        const all = [...a.partitions(), ...b.partitions()].sort();
        return a.partitions().length > 0 && b.partitions().length > 0 && all.join() === '0,1,2';
      });
      expect(seenByA.at(-1)).toEqual(a.partitions());

      // Each member reads its own partitions; another member's partition is refused.
      const writer = await openLog({ ...options, groupId: undefined });
      for (let i = 0; i < PARTITIONS; i++) await writer.append('k', [bytes(`w${i}`)]);
      for (const member of [a, b]) {
        for (const p of member.partitions()) expect((await readN(member, p, 0, 1))[0].text).toMatch(/^w\d$/);
      }
      const foreign = b.partitions()[0];
      const refused = await a.read(foreign, 0, 1).catch((e: unknown) => e);
      expect(refused).toMatchObject({ kind: 'unavailable', code: 'log_partition_not_assigned' });
      // Committing (truncateBefore) a partition that is not ours is a no-op, never an error.
      await a.truncateBefore(foreign, 1);
      for (const p of a.partitions()) await a.truncateBefore(p, 1);
      expect(a.stats().commitErrors).toBe(0);
      // The commits are the group's offsets, as Kafka tooling shows them.
      const admin = new Kafka({
        clientId: 'spec-admin',
        brokers: options.brokers,
        logLevel: logLevel.NOTHING,
      }).admin();
      await admin.connect();
      try {
        const [committed] = await admin.fetchOffsets({ groupId: options.groupId, topics: [options.topic] });
        const byPartition = new Map(committed.partitions.map((c) => [c.partition, c.offset]));
        for (const p of a.partitions()) expect(byPartition.get(p)).toBe('1');
        expect(byPartition.get(foreign)).toBe('-1'); // never committed by a
      } finally {
        await admin.disconnect();
      }

      await b.close();
      await waitFor('the hand-over', () => a.partitions().length === PARTITIONS);
      expect(seenByA.at(-1)).toEqual([0, 1, 2]);
      // The partitions taken over are read from wherever the caller asks.
      for (const p of [0, 1, 2]) expect((await readN(a, p, 0, 1))[0].text).toMatch(/^w\d$/);
    });

    it('lets a reader of another group seek to any offset, forwards and backwards, and closes quickly', async () => {
      const options = await topicWith(PARTITIONS);
      const writer = await openLog(options);
      const positions = await writer.append(
        'k',
        Array.from({ length: 20 }, (_, i) => bytes(`r${i}`)),
      );
      const p = positions[0].partition;
      const reader = await openLog({ ...options, groupId: freshTopic('query') });
      const texts = (records: { payload: Uint8Array }[]) => records.map((r) => text(r.payload));
      expect(texts(await reader.read(p, 12, 5))).toEqual(['r12', 'r13', 'r14', 'r15', 'r16']);
      expect(texts(await reader.read(p, 3, 4))).toEqual(['r3', 'r4', 'r5', 'r6']);
      expect((await readN(reader, p, 7, 13)).map((r) => r.offset)).toEqual(
        Array.from({ length: 13 }, (_, i) => 7 + i),
      );
      expect(await reader.read(p, 20, 5)).toEqual([]); // caught up
      expect(await reader.read(p, 25, 5)).toEqual([]); // past the end: no seek, nothing
      // Records appended later show up at the cursor.
      const [late] = await writer.append('k', [bytes('late')]); // round-robin: the next partitions first
      await writer.append('k', [bytes('later')]);
      const [again] = await writer.append('k', [bytes('latest')]);
      expect(again.partition).toBe(p);
      expect(late.partition).not.toBe(p);
      expect(await readN(reader, p, 20, 1)).toEqual([{ offset: 20, text: 'latest' }]);
      // fetchEndOffsets reads the watermarks the reader had not seen yet.
      const ends = await reader.fetchEndOffsets();
      expect(ends.get(late.partition)).toBe(late.offset + 1);
      expect(reader.endOffset(late.partition)).toBe(late.offset + 1);

      // Closing (consumer, producer, admin) is quick and idempotent.
      const started = Date.now();
      await Promise.all([reader.close(), reader.close()]);
      await reader.close();
      expect(Date.now() - started).toBeLessThan(6_000);
      await expect(reader.read(p, 0, 1)).rejects.toMatchObject({ kind: 'unavailable', code: 'log_closed' });
    });

    it('pins every append to fixedPartition, a split append in order', async () => {
      const options = { ...(await topicWith(PARTITIONS)), fixedPartition: 1, maxMessageBytes: 1_000 };
      const log = await openLog(options);
      const positions = await log.append(
        'metrics',
        Array.from({ length: 7 }, (_, i) => bytes(`${i}`.padEnd(400, '.'))),
      );
      expect(positions).toEqual(Array.from({ length: 7 }, (_, i) => ({ partition: 1, offset: i })));
      expect(await log.append('other', [bytes('x')])).toEqual([{ partition: 1, offset: 7 }]);
      const err = await KafkaIngestLog.open({ ...options, fixedPartition: PARTITIONS }).catch(
        (e: unknown) => e,
      );
      expect(err).toMatchObject({ kind: 'invalid', code: 'log_kafka_config_invalid' });
    });

    it('fails to open with unavailable, naming the brokers, when none can be reached', async () => {
      const started = Date.now();
      const err = await KafkaIngestLog.open({
        ...baseOptions(target, 'any'),
        brokers: ['127.0.0.1:1'],
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'unavailable', retryAfterSeconds: 5 });
      expect(String((err as Error).message)).toContain('127.0.0.1:1');
      expect(Date.now() - started).toBeLessThan(15_000);
    });

    it('refuses a read from a producer-only log and invalid options', async () => {
      const log = await openLog(await topicWith(1));
      await expect(log.read(0, 0, 1)).rejects.toMatchObject({ kind: 'internal', code: 'log_no_consumer' });
      const err = await KafkaIngestLog.open({
        brokers: ['nohost'],
        topic: '',
        clientId: 'x',
        maxMessageBytes: -1,
      }).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'invalid', code: 'log_kafka_config_invalid' });
      expect((err as { details: { problems: string[] } }).details.problems).toHaveLength(3);
    });

    it('fails to open on a missing topic with unavailable, naming topic and brokers, and creates nothing', async () => {
      const options = baseOptions(target, freshTopic('missing'));
      const err = await KafkaIngestLog.open(options).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'unavailable', code: 'log_topic_missing' });
      expect(String((err as Error).message)).toContain(options.topic);
      expect(String((err as Error).message)).toContain(options.brokers[0]);
      // Still missing: opening did not auto-create it.
      const again = await KafkaIngestLog.open(options).catch((e: unknown) => e);
      expect(again).toMatchObject({ code: 'log_topic_missing' });
    });
  });
}

/** Faults only the mock can inject: broker outages, slow brokers, and its 5 MiB per-partition retention. */
function mockFaults(): void {
  describe('KafkaIngestLog under mock faults', () => {
    let cluster: MockKafkaCluster;
    const open: KafkaIngestLog[] = [];
    const options = (topic: string): KafkaLogOptions => ({
      brokers: cluster.brokers,
      topic,
      clientId: 'quarry-log-faults',
      logLevel: 'nothing',
      connectionTimeoutMs: 1_000,
      requestTimeoutMs: 1_000,
      fetchMaxWaitMs: 100,
      sessionTimeoutMs: 3_000,
      heartbeatIntervalMs: 500,
    });
    const openLog = async (o: KafkaLogOptions) => {
      const log = await KafkaIngestLog.open(o);
      open.push(log);
      return log;
    };

    beforeAll(async () => {
      cluster = await MockKafkaCluster.start({
        brokers: 3,
        topics: [
          { name: 'outage', partitions: PARTITIONS, replicationFactor: 3 },
          { name: 'slow', partitions: PARTITIONS, replicationFactor: 3 },
          { name: 'retention', partitions: 1, replicationFactor: 3 },
        ],
      });
    });
    afterEach(async () => {
      await cluster.up(-1);
      await cluster.setRtt(-1, 0);
      await Promise.all(open.splice(0).map((log) => log.close()));
    });
    afterAll(() => cluster?.stop());

    it('rejects appends with unavailable within a bounded time while every broker is down, and recovers', async () => {
      const log = await openLog(options('outage'));
      await log.append('k', [bytes('before')]);
      await cluster.down(-1);
      const started = Date.now();
      const err = await log.append('k', [bytes('during')]).catch((e: unknown) => e);
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(err).toMatchObject({ kind: 'unavailable', code: 'log_unavailable', retryAfterSeconds: 5 });
      await expect(log.fetchEndOffsets()).rejects.toMatchObject({ kind: 'unavailable' });
      expect(log.stats()).toMatchObject({ failed: false, produceErrors: 1 });

      await cluster.up(-1);
      const deadline = Date.now() + 10_000;
      for (;;) {
        const result = await log.append('k', [bytes('after')]).catch((e: unknown) => e);
        if (!isQuarryError(result)) break;
        if (Date.now() > deadline) throw result;
        await sleep(200);
      }
      const ends = await log.fetchEndOffsets();
      expect([...ends.values()].reduce((a, b) => a + b, 0)).toBe(2);
    });

    it('keeps appending and reading while partition leaders move', async () => {
      const writer = await openLog(options('slow'));
      const written: { partition: number; offset: number }[] = [];
      const moveLeaders = async (round: number) => {
        for (let p = 0; p < PARTITIONS; p++) await cluster.setLeader('slow', p, ((p + round) % 3) + 1);
      };
      for (let round = 1; round <= 2; round++) {
        await moveLeaders(round);
        for (let i = 0; i < 6; i++) written.push(...(await writer.append('k', [bytes(`${round}.${i}`)])));
        const ends = await writer.fetchEndOffsets();
        expect([...ends.values()].reduce((a, b) => a + b, 0)).toBe(written.length);
      }
      const reader = await openLog({ ...options('slow'), groupId: 'leader-moves' });
      for (let p = 0; p < PARTITIONS; p++) {
        if (p === 1) await moveLeaders(3); // while reading
        const count = written.filter((w) => w.partition === p).length;
        expect((await readN(reader, p, 0, count)).map((r) => r.offset)).toEqual(
          Array.from({ length: count }, (_, i) => i),
        );
      }
    });

    it('gives up on a broker that does not answer within a few request timeouts', async () => {
      await cluster.createTopic({ name: 'slower', partitions: 1 });
      const log = await openLog(options('slower'));
      await cluster.setRtt(-1, 20_000);
      const started = Date.now();
      const err = await log.append('k', [bytes('slow')]).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'unavailable', code: 'log_unavailable' });
      expect(Date.now() - started).toBeLessThan(10_000);
    });

    it('reports records deleted by retention as not_found and reads from the log start', async () => {
      const writer = await openLog(options('retention'));
      const payload = new Uint8Array(900_000).fill(7);
      for (let i = 0; i < 7; i++)
        expect(await writer.append('k', [payload])).toEqual([{ partition: 0, offset: i }]);
      const reader = await openLog({
        ...options('retention'),
        groupId: 'retention-reader',
        readWaitMs: 3_000,
      });
      const err = await reader.read(0, 0, 10).catch((e: unknown) => e);
      expect(err).toMatchObject({ kind: 'not_found', code: 'log_offset_truncated' });
      const start = (err as { details: { logStart: number } }).details.logStart;
      expect(start).toBeGreaterThan(0);
      const records = await readN(reader, 0, start, 7 - start);
      expect(records.map((r) => r.offset)).toEqual(Array.from({ length: 7 - start }, (_, i) => start + i));
    });
  });
}

/** The pull-side buffer and the option checks need no broker. */
describe('PartitionReader', () => {
  const messages = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => ({ offset: String(from + i), value: Buffer.from(`m${from + i}`) }));

  it('is positioned by its first batch and hands out records in order', () => {
    const reader = new PartitionReader(2, 100, 1_000_000);
    expect(reader.cursor).toBeUndefined();
    reader.push(5, messages(5, 3));
    expect([reader.cursor, reader.next, reader.size, reader.bytes]).toEqual([5, 8, 3, 6]);
    expect(reader.take(2).map((r) => [r.partition, r.offset, text(r.payload)])).toEqual([
      [2, 5, 'm5'],
      [2, 6, 'm6'],
    ]);
    expect([reader.cursor, reader.firstOffset]).toEqual([7, 7]);
  });

  it('drops messages it already buffered (a fetch that raced a seek) and treats null values as empty', () => {
    const reader = new PartitionReader(0, 100, 1_000_000);
    reader.push(0, messages(0, 4));
    reader.push(2, [...messages(2, 3), { offset: '5', value: null }]);
    expect(reader.take(100).map((r) => [r.offset, r.payload.length])).toEqual([
      [0, 2],
      [1, 2],
      [2, 2],
      [3, 2],
      [4, 2],
      [5, 0],
    ]);
  });

  it('is full at its limits, drained below half of them, and reset by a seek', async () => {
    const reader = new PartitionReader(0, 4, 1_000_000);
    reader.push(0, messages(0, 4));
    expect([reader.full, reader.drained]).toEqual([true, false]);
    reader.take(2);
    expect([reader.full, reader.drained]).toEqual([false, true]);
    const woken = reader.waitForChange(10_000);
    reader.reset(40);
    await woken;
    expect([reader.cursor, reader.next, reader.size, reader.bytes]).toEqual([40, 40, 0, 0]);
  });
});

describe('Kafka log options', () => {
  it('lists every problem at once', () => {
    let err: unknown;
    try {
      resolveKafkaLogOptions({
        brokers: [],
        topic: '',
        clientId: '',
        groupId: '',
        requestTimeoutMs: 0,
        sessionTimeoutMs: 1_000,
        heartbeatIntervalMs: 2_000,
        fixedPartition: -1,
      });
    } catch (e) {
      err = e;
    }
    expect(isQuarryError(err) && err.kind).toBe('invalid');
    expect((err as { details: { problems: string[] } }).details.problems).toEqual([
      'brokers: at least one host:port',
      'topic: required',
      'clientId: required',
      'groupId: empty (omit it for a producer-only log)',
      'fixedPartition: a partition number, got -1',
      'requestTimeoutMs: a positive integer, got 0',
      'heartbeatIntervalMs: below sessionTimeoutMs',
    ]);
  });

  it('fills in defaults', () => {
    expect(resolveKafkaLogOptions({ brokers: ['k:9092'], topic: 't', clientId: 'c' })).toMatchObject({
      maxMessageBytes: 1_000_000,
      requestTimeoutMs: 10_000,
      logLevel: 'warn',
    });
  });
});

if (!availability.ok && inCi) {
  it('can build the mock Kafka cluster (CI provides gcc and librdkafka-dev)', () => {
    throw new Error(`CI=true but ${availability.reason}`);
  });
}
if (availability.ok) {
  const target = mockTarget();
  kafkaContract(target);
  kafkaBehaviour(mockTarget());
  mockFaults();
} else {
  console.warn(`kafka-ingest-log.adapter.spec: ${availability.reason}; the Kafka suites did not run`);
  describe.skip(`KafkaIngestLog on the mock cluster (skipped: ${availability.reason})`, () => {
    it('runs the IngestLog contract', () => undefined);
  });
}
if (realBrokers && realBrokers.length > 0) {
  kafkaContract(realTarget(realBrokers));
  kafkaBehaviour(realTarget(realBrokers));
}
