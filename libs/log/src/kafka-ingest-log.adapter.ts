/**
 * The ingest log on a Kafka topic (kafkajs 2.2.4), for the cluster shape: ingest nodes append, compactor
 * nodes consume with a shared consumer group, query nodes tail with a group of their own.
 *
 * Producer side:
 * - Every produce uses acks=-1: `append` resolves only after all in-sync replicas have the records. The
 *   producer is not idempotent (librdkafka's mock cannot do it, reference/infra.md §Q2), so a retried
 *   request may store a batch twice: the log is at-least-once, and readers must tolerate duplicates.
 * - Partitions are chosen per append, round-robin over all partitions of the topic (not by key), so one
 *   hot dataset spreads over every partition (`fixedPartition` pins them all to one partition instead).
 *   The payloads of one append that fit one record batch go to one partition in one produce request and
 *   get consecutive offsets.
 * - An append larger than `maxMessageBytes` in total is split into batches, each under the limit, sent to
 *   successive partitions. It resolves only when every batch is acknowledged; if any batch fails it
 *   rejects, although the other batches may have been stored (the client retries: at-least-once again).
 * - Errors: a payload that cannot fit one batch → `too_large` before anything is sent; brokers
 *   unreachable, timeouts, not enough replicas → `unavailable` (Retry-After 5 s) after kafkajs's few,
 *   short retries, and in any case after a deadline of a few request timeouts. Kafka errors are per
 *   request: `stats().failed` stays false.
 *
 * Consumer side (only with `groupId`): kafkajs pushes fetched batches; `read` pulls them from a bounded
 * buffer per assigned partition (`PartitionReader`). Fetching of a partition pauses while its buffer is
 * full. A `read` that does not continue where the previous one stopped seeks the consumer (dropping the
 * buffer) after checking the partition's log start and high watermark. Rebalances replace the set of
 * readers; `onAssignment` listeners learn the new assignment. `truncateBefore` commits the group offset
 * (deletion is Kafka's retention); offsets are never auto-committed.
 */
import { isQuarryError, QuarryError } from '@quarry/common';
import type { LogPosition } from '@quarry/contracts';
import {
  CompressionTypes,
  Kafka,
  Partitioners,
  type Admin,
  type Consumer,
  type ConsumerRunConfig,
  type EachBatchPayload,
  type Producer,
} from 'kafkajs';
import {
  adapterLogger,
  kafkaClientConfig,
  RECORD_OVERHEAD_BYTES,
  resolveKafkaLogOptions,
  retryOptions,
  type KafkaLogOptions,
  type ResolvedKafkaLogOptions,
} from './kafka-config';
import type { IngestLog, IngestLogStats, LogRecord } from './ingest-log.port';
import { PartitionReader } from './kafka-partition-reader';

export interface KafkaIngestLogStats extends IngestLogStats {
  /** Append calls rejected (any reason but `too_large` before sending). */
  produceErrors: number;
  /** Records and payload bytes fetched but not read yet, over all assigned partitions. */
  bufferedRecords: number;
  bufferedBytes: number;
  assignedPartitions: number;
  /** Group joins completed (the first join counts). */
  rebalances: number;
  /** Consumer crashes reported by kafkajs (each followed by a restart). */
  consumerCrashes: number;
  commitErrors: number;
}

const RETRY_AFTER_SECONDS = 5;
/** Delay before we restart a consumer kafkajs gave up on (a non-retriable crash). */
const CONSUMER_RESTART_MS = 5_000;

interface PartitionOffsets {
  low: number;
  high: number;
}

export class KafkaIngestLog implements IngestLog {
  private readonly topic: string;
  private partitionCount: number;
  private roundRobin: number;
  private readonly highWatermarks = new Map<number, number>();
  private readers = new Map<number, PartitionReader>();
  private readonly committed = new Map<number, number>();
  private readonly assignmentListeners = new Set<(partitions: number[]) => void>();
  /** `restrictTo`: the partitions this instance works on (null: every assigned partition). */
  private focus: Set<number> | null = null;
  private readonly log: ReturnType<typeof adapterLogger>;
  private admin: Admin;
  private adminStale = false;
  private consumer: Consumer | undefined;
  private restartTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;

  private appendedRecords = 0;
  private appendedBytes = 0;
  private produceErrors = 0;
  private rebalances = 0;
  private consumerCrashes = 0;
  private commitErrors = 0;

  private constructor(
    private readonly options: ResolvedKafkaLogOptions,
    private readonly kafka: Kafka,
    admin: Admin,
    private readonly producer: Producer,
    partitionCount: number,
  ) {
    this.topic = options.topic;
    this.admin = admin;
    this.partitionCount = partitionCount;
    // Start at a random partition, so ingest nodes that start together do not move in lockstep.
    this.roundRobin = Math.floor(Math.random() * partitionCount);
    this.log = adapterLogger(options);
  }

  /**
   * Connects the producer and an admin client (and the consumer, joining the group, when `groupId` is
   * set) and loads the topic's partitions and high watermarks. Rejects with `unavailable` when the
   * brokers cannot be reached or the topic does not exist: topics are created by operators, never here.
   */
  static async open(options: KafkaLogOptions): Promise<KafkaIngestLog> {
    const o = resolveKafkaLogOptions(options);
    const kafka = new Kafka(kafkaClientConfig(o));
    const admin = kafka.admin({ retry: retryOptions(o) });
    const producer = kafka.producer({
      allowAutoTopicCreation: false,
      idempotent: false,
      retry: retryOptions(o),
      // Unused (every message names its partition); passing it silences kafkajs's partitioner notice.
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    const where = `Kafka topic "${o.topic}" at ${o.brokers.join(',')}`;
    let log: KafkaIngestLog | undefined;
    try {
      await Promise.all([admin.connect(), producer.connect()]);
      // listTopics first: a metadata request naming a missing topic may auto-create it on some brokers.
      const topics = await admin.listTopics();
      if (!topics.includes(o.topic)) {
        throw new QuarryError('unavailable', `${where} does not exist; create it before starting Quarry`, {
          code: 'log_topic_missing',
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        });
      }
      const metadata = await admin.fetchTopicMetadata({ topics: [o.topic] });
      const partitionCount = metadata.topics[0]?.partitions.length ?? 0;
      if (partitionCount === 0) {
        throw new QuarryError('unavailable', `${where} has no partitions`, { code: 'log_topic_missing' });
      }
      if (o.fixedPartition !== undefined && o.fixedPartition >= partitionCount) {
        throw new QuarryError(
          'invalid',
          `fixedPartition ${o.fixedPartition} does not exist: ${where} has ${partitionCount} partitions`,
          { code: 'log_kafka_config_invalid' },
        );
      }
      log = new KafkaIngestLog(o, kafka, admin, producer, partitionCount);
      await log.fetchOffsets();
      if (o.groupId !== undefined) await log.startConsumer(o.groupId);
      return log;
    } catch (err) {
      if (log) await log.close();
      else await Promise.allSettled([producer.disconnect(), admin.disconnect()]);
      throw toLogError(err, `cannot open the ingest log on ${where}`);
    }
  }

  append(key: string, payloads: Uint8Array[]): Promise<LogPosition[]> {
    if (this.closed) return Promise.reject(closedError());
    if (payloads.length === 0) return Promise.resolve([]);
    const limit = this.options.maxMessageBytes;
    const perRecord = RECORD_OVERHEAD_BYTES + Buffer.byteLength(key);
    const batches: Uint8Array[][] = [];
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    for (const payload of payloads) {
      const size = payload.length + perRecord;
      if (size > limit) {
        return Promise.reject(
          new QuarryError(
            'too_large',
            `log record of ${payload.length} bytes (+${perRecord} bytes of record overhead) exceeds the Kafka message limit of ${limit} bytes`,
            { code: 'log_record_too_large', details: { limitBytes: limit } },
          ),
        );
      }
      if (batchBytes + size > limit) {
        batches.push(batch);
        batch = [];
        batchBytes = 0;
      }
      batch.push(payload);
      batchBytes += size;
    }
    batches.push(batch);
    return this.appendBatches(key, batches);
  }

  async read(partition: number, fromOffset: number, maxRecords: number): Promise<LogRecord[]> {
    if (this.closed) throw closedError();
    this.checkPartition(partition);
    if (!Number.isSafeInteger(fromOffset) || fromOffset < 0) {
      throw new QuarryError('invalid', `bad offset ${fromOffset}`, { code: 'log_bad_offset' });
    }
    if (maxRecords <= 0) return [];
    if (!this.consumer) {
      throw new QuarryError('internal', 'this Kafka log was opened without a groupId and cannot read', {
        code: 'log_no_consumer',
      });
    }
    const reader = this.assignedReader(partition);
    if (reader.cursor !== fromOffset && !(await this.seek(reader, fromOffset))) return [];
    const deadline = Date.now() + this.options.readWaitMs;
    for (;;) {
      if (this.closed) throw closedError();
      if (this.readers.get(partition) !== reader || !(this.focus?.has(partition) ?? true))
        throw notAssigned(partition);
      if (reader.cursor !== fromOffset) {
        // Another read of this partition moved the cursor meanwhile: position again.
        if (!(await this.seek(reader, fromOffset))) return [];
        continue;
      }
      if (reader.size > 0) {
        if (reader.firstOffset! > fromOffset && reader.gapCheckedAt !== fromOffset) {
          await this.checkGap(reader, fromOffset);
          continue;
        }
        const records = reader.take(maxRecords);
        if (reader.paused && reader.drained) this.setPaused(reader, false);
        return records;
      }
      if (fromOffset >= this.endOffset(partition)) {
        // Caught up, no I/O done: yield a turn of the event loop, so a caller that polls in a tight loop
        // cannot starve the consumer that would deliver the next records.
        await new Promise((resolve) => setImmediate(resolve));
        return [];
      }
      const left = deadline - Date.now();
      if (left <= 0) return [];
      await reader.waitForChange(left);
    }
  }

  /** Partitions of the topic (as of the last metadata or offsets fetch). */
  get partitionTotal(): number {
    return this.partitionCount;
  }

  /** Last known high watermark (from produce acks, fetched batches and `fetchEndOffsets`). */
  endOffset(partition: number): number {
    this.checkPartition(partition);
    return this.highWatermarks.get(partition) ?? 0;
  }

  /** Partitions assigned to this consumer; all partitions of the topic for a producer-only log. */
  partitions(): number[] {
    if (!this.consumer) return range(this.partitionCount);
    return [...this.readers.keys()].filter((p) => this.focus?.has(p) ?? true).sort((a, b) => a - b);
  }

  /**
   * Works on these partitions only (null: on every assigned one), for owners that split the partitions
   * among themselves (the cluster's compactors hold a lease per partition). The others stop being
   * fetched, their buffers are dropped, and reading one fails like an unassigned partition.
   */
  restrictTo(partitions: readonly number[] | null): void {
    this.focus = partitions === null ? null : new Set(partitions);
    for (const reader of this.readers.values()) {
      const active = this.focus?.has(reader.partition) ?? true;
      if (!active) {
        reader.take(reader.size); // free the memory; the next read after a regain seeks
        reader.wake();
      }
      if (active === reader.paused) this.setPaused(reader, !active);
    }
  }

  /**
   * High watermarks of every partition of the topic, fetched now (one ListOffsets round per leader for
   * the high and one for the low watermark). Query nodes call it at the start of a query so they read
   * their own writes. `unavailable` when the brokers cannot be reached.
   */
  async fetchEndOffsets(): Promise<Map<number, number>> {
    if (this.closed) throw closedError();
    const offsets = await this.fetchOffsets();
    return new Map([...offsets].map(([partition, o]) => [partition, o.high]));
  }

  /** Calls `listener` after every rebalance with this consumer's new partitions. Returns an unsubscribe. */
  onAssignment(listener: (partitions: number[]) => void): () => void {
    this.assignmentListeners.add(listener);
    return () => this.assignmentListeners.delete(listener);
  }

  /**
   * Commits `offset` as the group's position in `partition`, so Kafka tooling shows the group's lag.
   * Kafka's retention deletes data, not us. Only assigned partitions are committed (a commit for another
   * member's partition would move its position), never backwards, and a failed commit (e.g. during a
   * rebalance) is logged and skipped: the next truncation commits a later offset anyway.
   */
  async truncateBefore(partition: number, offset: number): Promise<void> {
    if (this.closed) throw closedError();
    this.checkPartition(partition);
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new QuarryError('invalid', `bad offset ${offset}`, { code: 'log_bad_offset' });
    }
    if (!this.consumer || !this.readers.has(partition)) return;
    if ((this.committed.get(partition) ?? -1) >= offset) return;
    try {
      await this.consumer.commitOffsets([{ topic: this.topic, partition, offset: String(offset) }]);
      this.committed.set(partition, Math.max(offset, this.committed.get(partition) ?? -1));
    } catch (err) {
      this.commitErrors++;
      this.log('warn', 'could not commit the consumer group offset; a later truncation will', {
        partition,
        offset,
        error: describe(err),
      });
    }
  }

  stats(): KafkaIngestLogStats {
    let bufferedRecords = 0;
    let bufferedBytes = 0;
    for (const reader of this.readers.values()) {
      bufferedRecords += reader.size;
      bufferedBytes += reader.bytes;
    }
    return {
      failed: false,
      // Segments and retained bytes live in Kafka; this process keeps none.
      segments: 0,
      bytes: 0,
      tornTailTruncations: 0,
      appendedRecords: this.appendedRecords,
      appendedBytes: this.appendedBytes,
      produceErrors: this.produceErrors,
      bufferedRecords,
      bufferedBytes,
      assignedPartitions: this.consumer ? this.readers.size : 0,
      rebalances: this.rebalances,
      consumerCrashes: this.consumerCrashes,
      commitErrors: this.commitErrors,
    };
  }

  /** Disconnects producer, admin and consumer (leaving the group); idempotent. */
  close(): Promise<void> {
    if (!this.closing) {
      this.closed = true;
      clearTimeout(this.restartTimer);
      for (const reader of this.readers.values()) reader.wake();
      this.closing = Promise.allSettled([
        this.consumer?.disconnect(),
        this.producer.disconnect(),
        this.admin.disconnect(),
      ]).then(() => undefined);
    }
    return this.closing;
  }

  private async appendBatches(key: string, batches: Uint8Array[][]): Promise<LogPosition[]> {
    const keyBytes = Buffer.from(key);
    let positions: LogPosition[];
    try {
      positions = await (this.options.fixedPartition === undefined
        ? this.sendSpread(keyBytes, batches)
        : this.sendInOrder(keyBytes, batches, this.options.fixedPartition));
    } catch (err) {
      this.produceErrors++;
      throw toLogError(err, `could not append to Kafka topic "${this.topic}"`);
    }
    this.appendedRecords += positions.length;
    for (const batch of batches) for (const payload of batch) this.appendedBytes += payload.length;
    return positions;
  }

  /** Batches go to successive partitions, all at once. */
  private async sendSpread(key: Buffer, batches: Uint8Array[][]): Promise<LogPosition[]> {
    const sends = batches.map((batch) => this.sendBatch(key, batch, this.nextPartition()));
    // Wait for every batch even after a failure: never leave a send running unobserved.
    const results = await Promise.allSettled(sends);
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failure) throw failure.reason;
    return results.flatMap((r) => (r as PromiseFulfilledResult<LogPosition[]>).value);
  }

  /** One partition, one batch after the other, so the records keep the order of the append. */
  private async sendInOrder(key: Buffer, batches: Uint8Array[][], partition: number): Promise<LogPosition[]> {
    const positions: LogPosition[] = [];
    for (const batch of batches) positions.push(...(await this.sendBatch(key, batch, partition)));
    return positions;
  }

  private async sendBatch(key: Buffer, payloads: Uint8Array[], partition: number): Promise<LogPosition[]> {
    const messages = payloads.map((p) => ({
      partition,
      key,
      value: Buffer.from(p.buffer, p.byteOffset, p.byteLength),
    }));
    const send = this.producer.send({
      topic: this.topic,
      acks: -1,
      timeout: this.options.requestTimeoutMs,
      compression: CompressionTypes.None,
      messages,
    });
    // kafkajs nests retries (metadata, connection, send); the deadline bounds them all.
    const metadata = await withDeadline(send, this.appendDeadlineMs(), () =>
      this.log('warn', 'a produce request outlived its deadline', { partition }),
    );
    const meta = metadata.find((m) => m.partition === partition);
    if (!meta || meta.errorCode !== 0 || meta.baseOffset === undefined) {
      throw new QuarryError('unavailable', `Kafka did not acknowledge the batch for partition ${partition}`, {
        code: 'log_unavailable',
        retryAfterSeconds: RETRY_AFTER_SECONDS,
        details: { errorCode: meta?.errorCode },
      });
    }
    const base = Number(meta.baseOffset);
    this.noteHighWatermark(partition, base + payloads.length);
    return payloads.map((_, i) => ({ partition, offset: base + i }));
  }

  /** A produce fails by then however kafkajs retries: a few request timeouts. */
  private appendDeadlineMs(): number {
    return this.options.requestTimeoutMs * 3 + this.options.connectionTimeoutMs;
  }

  private nextPartition(): number {
    const partition = this.roundRobin % this.partitionCount;
    this.roundRobin = (partition + 1) % this.partitionCount;
    return partition;
  }

  private async startConsumer(groupId: string): Promise<void> {
    const o = this.options;
    const consumer = this.kafka.consumer({
      groupId,
      allowAutoTopicCreation: false,
      sessionTimeout: o.sessionTimeoutMs,
      heartbeatInterval: o.heartbeatIntervalMs,
      maxWaitTimeInMs: o.fetchMaxWaitMs,
      readUncommitted: false,
      // After close, kafkajs must not restart a consumer that crashed while we were disconnecting it.
      retry: { ...retryOptions(o), restartOnFailure: async () => !this.closed },
    });
    this.consumer = consumer;
    consumer.on(consumer.events.GROUP_JOIN, (event) => {
      this.onGroupJoin(event.payload.memberAssignment[this.topic] ?? []);
    });
    consumer.on(consumer.events.CRASH, (event) => {
      this.consumerCrashes++;
      const { error, restart } = event.payload;
      this.log(this.closed ? 'debug' : 'warn', 'the Kafka consumer crashed', {
        error: describe(error),
        restartedByKafkaJs: restart,
      });
      if (!restart) this.scheduleConsumerRestart();
    });
    await consumer.connect();
    // fromBeginning: a new group must not skip records appended before it first joined.
    await consumer.subscribe({ topics: [this.topic], fromBeginning: true });
    await consumer.run(this.runConfig());
  }

  private runConfig(): ConsumerRunConfig {
    return {
      autoCommit: false,
      eachBatchAutoResolve: true,
      eachBatch: async (payload) => this.onBatch(payload),
    };
  }

  /** kafkajs gives up on non-retriable crashes; an ingest log must keep consuming, so we start again. */
  private scheduleConsumerRestart(): void {
    if (this.closed || this.restartTimer) return;
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (this.closed || !this.consumer) return;
      const consumer = this.consumer;
      consumer
        .connect()
        .then(() => consumer.run(this.runConfig()))
        .catch((err: unknown) => {
          this.log('warn', 'could not restart the Kafka consumer', { error: describe(err) });
          this.scheduleConsumerRestart();
        });
    }, CONSUMER_RESTART_MS);
    this.restartTimer.unref();
  }

  private onBatch({ batch, isStale }: EachBatchPayload): void {
    // Stale: a seek of this partition is pending, the batch comes from the old position.
    if (this.closed || isStale()) return;
    const reader = this.readers.get(batch.partition);
    // Not ours (any more): a fetch that raced `restrictTo`; a later read seeks anyway.
    if (!reader || !(this.focus?.has(batch.partition) ?? true)) return;
    this.noteHighWatermark(batch.partition, Number(batch.highWatermark));
    // `fetchedOffset` is where the fetch started (kafkajs's Batch has it; its typings do not).
    const fetched = (batch as { fetchedOffset?: string }).fetchedOffset ?? batch.firstOffset() ?? '0';
    reader.push(Number(fetched), batch.messages);
    if (reader.full && !reader.paused) this.setPaused(reader, true);
  }

  /** After each (re)join: keep readers of partitions we still own, drop the others, start new ones. */
  private onGroupJoin(assignment: number[]): void {
    const next = new Map<number, PartitionReader>();
    for (const partition of [...assignment].sort((a, b) => a - b)) {
      const kept = this.readers.get(partition);
      const reader =
        kept ?? new PartitionReader(partition, this.options.bufferMaxRecords, this.options.bufferMaxBytes);
      next.set(partition, reader);
      // kafkajs restarts a kept partition at the group's committed offset: continue after our buffer.
      if (reader.next !== undefined) this.seekConsumer(partition, reader.next);
      // A crash-restart loses kafkajs's pause state; a revoked-and-returned partition may still be paused,
      // and one outside `restrictTo` stays paused.
      this.setPaused(reader, reader.paused || !(this.focus?.has(partition) ?? true));
    }
    for (const [partition, reader] of this.readers) {
      if (next.has(partition)) continue;
      reader.wake(); // its waiting readers now fail with "not assigned"
      this.committed.delete(partition); // another member moves the group's offset now
    }
    this.readers = next;
    this.rebalances++;
    const partitions = [...next.keys()];
    this.log('info', 'consumer group assignment', { partitions });
    for (const listener of this.assignmentListeners) {
      try {
        listener(partitions);
      } catch (err) {
        this.log('error', 'an onAssignment listener threw', { error: describe(err) });
      }
    }
  }

  /**
   * Positions `reader` at `offset`: refreshes the partition's watermarks, refuses offsets below the log
   * start (`not_found`), and returns false for offsets past the high watermark (nothing to read; seeking
   * there would make kafkajs reset the partition to its beginning on OFFSET_OUT_OF_RANGE).
   */
  private async seek(reader: PartitionReader, offset: number): Promise<boolean> {
    const partition = reader.partition;
    const watermarks = (await this.fetchOffsets()).get(partition);
    if (!watermarks) throw notAssigned(partition);
    if (offset < watermarks.low) throw truncated(partition, offset, watermarks.low);
    if (offset > watermarks.high) return false;
    if (this.closed) throw closedError();
    if (this.readers.get(partition) !== reader) throw notAssigned(partition);
    reader.reset(offset);
    this.seekConsumer(partition, offset);
    if (reader.paused) this.setPaused(reader, false);
    return true;
  }

  /**
   * The first buffered record lies past the reader's offset. Kafka offsets have gaps only for
   * transaction markers or compaction; otherwise retention deleted the records and kafkajs jumped to the
   * log start (OFFSET_OUT_OF_RANGE). Data loss must not pass silently, so compare with the log start.
   */
  private async checkGap(reader: PartitionReader, offset: number): Promise<void> {
    const watermarks = (await this.fetchOffsets()).get(reader.partition);
    if (watermarks && offset < watermarks.low) throw truncated(reader.partition, offset, watermarks.low);
    reader.gapCheckedAt = offset;
  }

  /**
   * kafkajs's seek/pause/resume throw while its consumer restarts after a crash. Nothing is lost: the
   * next group join seeks every reader to `reader.next` and re-applies `reader.paused`.
   */
  private seekConsumer(partition: number, offset: number): void {
    try {
      this.consumer?.seek({ topic: this.topic, partition, offset: String(offset) });
    } catch (err) {
      this.log('debug', 'seek deferred to the next group join', { partition, error: describe(err) });
    }
  }

  private setPaused(reader: PartitionReader, paused: boolean): void {
    reader.paused = paused;
    const topicPartitions = [{ topic: this.topic, partitions: [reader.partition] }];
    try {
      if (paused) this.consumer?.pause(topicPartitions);
      else this.consumer?.resume(topicPartitions);
    } catch (err) {
      this.log('debug', 'pause/resume deferred to the next group join', { error: describe(err) });
    }
  }

  private assignedReader(partition: number): PartitionReader {
    const reader = this.readers.get(partition);
    if (!reader || !(this.focus?.has(partition) ?? true)) throw notAssigned(partition);
    return reader;
  }

  /** Low and high watermarks of every partition; also refreshes `highWatermarks` and the partition count. */
  private async fetchOffsets(): Promise<Map<number, PartitionOffsets>> {
    let rows: { partition: number; low: string; high: string }[];
    try {
      if (this.adminStale) await this.reconnectAdmin();
      rows = await this.admin.fetchTopicOffsets(this.topic);
    } catch {
      // kafkajs's admin refreshes its metadata only every 5 minutes, and gives up on NOT_LEADER errors:
      // after a leader move it keeps asking the old leader. A fresh admin client starts with fresh
      // metadata, so try once more with one.
      try {
        await this.reconnectAdmin();
        rows = await this.admin.fetchTopicOffsets(this.topic);
      } catch (err) {
        this.adminStale = true;
        throw toLogError(err, `could not fetch the offsets of Kafka topic "${this.topic}"`);
      }
    }
    const out = new Map<number, PartitionOffsets>();
    for (const row of rows) {
      const offsets = { low: Number(row.low), high: Number(row.high) };
      out.set(row.partition, offsets);
      this.noteHighWatermark(row.partition, offsets.high);
      if (row.partition >= this.partitionCount) this.partitionCount = row.partition + 1;
    }
    return out;
  }

  private async reconnectAdmin(): Promise<void> {
    const old = this.admin;
    this.admin = this.kafka.admin({ retry: retryOptions(this.options) });
    this.adminStale = false;
    void old.disconnect().catch(() => undefined);
    await this.admin.connect();
  }

  private noteHighWatermark(partition: number, offset: number): void {
    if (!Number.isSafeInteger(offset) || offset < 0) return;
    if (offset > (this.highWatermarks.get(partition) ?? 0)) this.highWatermarks.set(partition, offset);
  }

  private checkPartition(partition: number): void {
    if (!Number.isInteger(partition) || partition < 0 || partition >= this.partitionCount) {
      throw new QuarryError(
        'invalid',
        `Kafka topic "${this.topic}" has partitions 0..${this.partitionCount - 1}, not ${partition}`,
        { code: 'log_bad_partition' },
      );
    }
  }
}

/** Maps a kafkajs failure to the QuarryError the HTTP edge understands. */
function toLogError(err: unknown, context: string): QuarryError {
  if (isQuarryError(err)) return err;
  const types = errorTypes(err);
  if (types.includes('MESSAGE_TOO_LARGE') || types.includes('RECORD_LIST_TOO_LARGE')) {
    return new QuarryError('too_large', `${context}: the broker refused the batch as too large`, {
      code: 'log_record_too_large',
      cause: err,
    });
  }
  const code = types.includes('UNKNOWN_TOPIC_OR_PARTITION') ? 'log_topic_missing' : 'log_unavailable';
  return new QuarryError('unavailable', `${context}: ${describe(err)}`, {
    code,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
    cause: err,
  });
}

/** kafkajs protocol error types along the cause chain (retry wrappers hide the original). */
function errorTypes(err: unknown): string[] {
  const types: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current && depth < 10; depth++) {
    const e = current as { type?: unknown; cause?: unknown; originalError?: unknown };
    if (typeof e.type === 'string') types.push(e.type);
    current = e.originalError ?? e.cause;
  }
  return types;
}

function describe(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

function closedError(): QuarryError {
  return new QuarryError('unavailable', 'the ingest log is closed', { code: 'log_closed' });
}

function notAssigned(partition: number): QuarryError {
  return new QuarryError('unavailable', `log partition ${partition} is not assigned to this consumer`, {
    code: 'log_partition_not_assigned',
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  });
}

function truncated(partition: number, offset: number, logStart: number): QuarryError {
  return new QuarryError(
    'not_found',
    `log offset ${offset} of partition ${partition} was truncated (log starts at ${logStart})`,
    { code: 'log_offset_truncated', details: { logStart, partition } },
  );
}

function withDeadline<T>(promise: Promise<T>, ms: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(
        new QuarryError('unavailable', `Kafka did not acknowledge within ${ms} ms`, {
          code: 'log_unavailable',
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        }),
      );
    }, ms);
  });
  // The losing promise's rejection is observed here so it never surfaces as unhandled.
  promise.catch(() => undefined);
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
