import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Kafka, logLevel, Partitioners } from 'kafkajs';
import { buildMockKafka, MockKafkaCluster, mockKafkaAvailability } from './mock-kafka';

const availability = mockKafkaAvailability();
const inCi = process.env.CI === 'true' || process.env.CI === '1';

if (!availability.ok) {
  if (inCi) {
    it('can build the mock Kafka launcher', () => {
      throw new Error(`CI=true but ${availability.reason}`);
    });
  } else {
    console.warn(`mock-kafka.spec: ${availability.reason}; the suite did not run`);
  }
}

(availability.ok ? describe : describe.skip)(
  `MockKafkaCluster${availability.ok ? '' : ` (skipped: ${availability.reason})`}`,
  () => {
    let cluster: MockKafkaCluster;
    beforeAll(async () => {
      cluster = await MockKafkaCluster.start({
        brokers: 3,
        topics: [{ name: 'events', partitions: 4, replicationFactor: 3 }],
      });
    });
    afterAll(() => cluster?.stop());

    const client = () =>
      new Kafka({
        clientId: 'mock-kafka-spec',
        brokers: cluster.brokers,
        logLevel: logLevel.NOTHING,
        connectionTimeout: 1000,
        requestTimeout: 3000,
        retry: { retries: 2, initialRetryTime: 100, maxRetryTime: 1000 },
      });

    it('prints a bootstrap list of one host:port per broker', () => {
      expect(cluster.brokers).toHaveLength(3);
      for (const broker of cluster.brokers) expect(broker).toMatch(/^127\.0\.0\.1:\d+$/);
      expect(cluster.bootstrap).toBe(cluster.brokers.join(','));
    });

    it('serves the pre-created topic and topics created later, and refuses duplicates', async () => {
      await cluster.createTopic({ name: 'later', partitions: 2, replicationFactor: 3 });
      await expect(cluster.createTopic({ name: 'later', partitions: 2 })).rejects.toThrow(/already exists/i);
      const admin = client().admin();
      await admin.connect();
      try {
        const { topics } = await admin.fetchTopicMetadata({ topics: ['events', 'later'] });
        expect(topics.map((t) => [t.name, t.partitions.length]).sort()).toEqual([
          ['events', 4],
          ['later', 2],
        ]);
        expect(topics.find((t) => t.name === 'later')!.partitions[0].replicas).toHaveLength(3);
      } finally {
        await admin.disconnect();
      }
    });

    it('produces and consumes with kafkajs, through a broker outage', async () => {
      const kafka = client();
      const producer = kafka.producer({
        allowAutoTopicCreation: false,
        createPartitioner: Partitioners.DefaultPartitioner,
      });
      await producer.connect();
      const consumer = kafka.consumer({ groupId: 'spec', maxWaitTimeInMs: 100 });
      try {
        const send = (i: number) =>
          producer.send({
            topic: 'events',
            acks: -1,
            messages: [{ partition: i % 4, value: Buffer.from(`m${i}`) }],
          });
        for (let i = 0; i < 20; i++) await send(i);

        // Broker 1 leads some partitions: move them, take it down, keep producing, bring it back.
        for (let p = 0; p < 4; p++) await cluster.setLeader('events', p, 2);
        await cluster.down(1);
        for (let i = 20; i < 30; i++) await send(i);
        await cluster.up(1);
        await cluster.setLeader('events', 0, 1);
        for (let i = 30; i < 40; i++) await send(i);

        const seen = new Set<string>();
        await consumer.connect();
        await consumer.subscribe({ topic: 'events', fromBeginning: true });
        const all = new Promise<void>((resolve) => {
          void consumer.run({
            eachMessage: async ({ message }) => {
              seen.add(String(message.value));
              if (seen.size === 40) resolve();
            },
          });
        });
        await all;
        expect([...seen].sort()).toEqual(Array.from({ length: 40 }, (_, i) => `m${i}`).sort());
      } finally {
        await consumer.disconnect();
        await producer.disconnect();
      }
    });

    it('refuses connections while every broker is down', async () => {
      const admin = client().admin();
      await admin.connect();
      try {
        await cluster.down(-1);
        await expect(admin.fetchTopicOffsets('events')).rejects.toThrow();
        await cluster.up(-1);
        expect(await admin.fetchTopicOffsets('events')).toHaveLength(4);
      } finally {
        await cluster.up(-1);
        await admin.disconnect();
      }
    });

    it('reports an unknown broker and invalid names as errors', async () => {
      await expect(cluster.down(7)).rejects.toThrow(/down 7/);
      await expect(cluster.createTopic({ name: 'a b', partitions: 1 })).rejects.toThrow(
        /invalid Kafka topic/,
      );
    });

    it('caches the build by the hash of its source', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-mockkafka-'));
      try {
        const first = await buildMockKafka(dir);
        expect(path.basename(first)).toMatch(/^mockkafka-[0-9a-f]{16}$/);
        const built = fs.statSync(first).mtimeMs;
        expect(await buildMockKafka(dir)).toBe(first);
        expect(fs.statSync(first).mtimeMs).toBe(built);
        expect(fs.readdirSync(dir)).toEqual([path.basename(first)]); // no temp files left
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    (process.platform === 'linux' ? it : it.skip)('exits when its parent process dies', async () => {
      const binary = await buildMockKafka();
      // `sh` starts the mock and exits; the mock holds our stdout pipe until it exits too.
      const sh = spawn('sh', ['-c', `"${binary}" 1 & echo "pid $!" >&2; sleep 0.3`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      sh.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      sh.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const pipeClosed = new Promise<number>((resolve) => sh.stdout.once('close', () => resolve(Date.now())));
      await new Promise((resolve) => sh.once('exit', resolve));
      const parentDied = Date.now();
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>(
        (resolve) => (timer = setTimeout(() => resolve('timeout'), 5_000)),
      );
      const closedAt = await Promise.race([pipeClosed, timeout]);
      clearTimeout(timer);
      if (closedAt === 'timeout') {
        const pid = Number(/pid (\d+)/.exec(stderr)?.[1]);
        if (pid) process.kill(pid, 'SIGKILL');
        throw new Error('the mock outlived its parent');
      }
      expect(stdout).toMatch(/^127\.0\.0\.1:\d+/);
      expect(closedAt - parentDied).toBeLessThan(3_000);
    });

    it('stops idempotently and exits', async () => {
      const other = await MockKafkaCluster.start({ brokers: 1 });
      await other.stop();
      await other.stop();
      await expect(other.down(1)).rejects.toThrow(/stopped/);
    });
  },
);
