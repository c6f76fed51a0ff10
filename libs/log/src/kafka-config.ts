/**
 * Options of the Kafka ingest log and their translation to kafkajs settings. Validation lists every
 * problem at once (a misconfigured node should fail once, completely).
 */
import type * as tls from 'node:tls';
import { QuarryError } from '@quarry/common';
import { logLevel as KafkaJsLogLevel, type KafkaConfig, type logCreator, type RetryOptions } from 'kafkajs';

export type KafkaLogLevel = 'nothing' | 'error' | 'warn' | 'info' | 'debug';

export interface KafkaSaslOptions {
  mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512';
  username: string;
  password: string;
}

export interface KafkaLogEntry {
  level: Exclude<KafkaLogLevel, 'nothing'>;
  /** `kafkajs.<namespace>` for the client's own lines, `quarry.kafka-log` for the adapter's. */
  source: string;
  message: string;
  extra?: Record<string, unknown>;
}

export interface KafkaLogOptions {
  /** Bootstrap brokers, `host:port`. */
  brokers: string[];
  /** The ingest topic. It must exist: operators create it (partitions, replication, retention). */
  topic: string;
  clientId: string;
  ssl?: boolean | tls.ConnectionOptions;
  sasl?: KafkaSaslOptions;
  /** Consumer group. Absent: a producer-only instance (ingest nodes), which cannot `read`. */
  groupId?: string;
  /**
   * Send every append to this partition instead of round-robin: for producers that need one total
   * order of their records (metrics, docs/adr/0005). The batches of a split append are then sent one
   * after the other, in order.
   */
  fixedPartition?: number;
  /** Upper bound of one produce request's record batch; default 1_000_000, below Kafka's default `message.max.bytes`. */
  maxMessageBytes?: number;
  /** TCP connect timeout; default 3000 ms. */
  connectionTimeoutMs?: number;
  /** Timeout of one request, also the broker-side ack timeout of a produce; default 10_000 ms. */
  requestTimeoutMs?: number;
  /** Retries of a failed request by kafkajs (with backoff up to 1 s); default 2. */
  retries?: number;
  /** Default 'warn'. */
  logLevel?: KafkaLogLevel;
  /** Receives log lines at or above `logLevel`; default: one JSON line per entry on stderr. */
  logSink?: (entry: KafkaLogEntry) => void;
  /** How long `read` waits for fetched records below the high watermark; default 1000 ms. */
  readWaitMs?: number;
  /** Broker-side long-poll of one fetch; bounds how soon a seek takes effect. Default 250 ms. */
  fetchMaxWaitMs?: number;
  /** Consumer session timeout; default 30_000 ms. A rebalance waits up to about this long for members. */
  sessionTimeoutMs?: number;
  /** Default 3000 ms; must be below `sessionTimeoutMs`. */
  heartbeatIntervalMs?: number;
  /** Fetched-but-unread records per partition above which fetching of that partition pauses; default 10_000. */
  bufferMaxRecords?: number;
  /** Fetched-but-unread payload bytes per partition above which fetching pauses; default 16 MiB. */
  bufferMaxBytes?: number;
}

type OptionalKeys = 'ssl' | 'sasl' | 'groupId' | 'fixedPartition';
export type ResolvedKafkaLogOptions = Required<Omit<KafkaLogOptions, OptionalKeys>> &
  Pick<KafkaLogOptions, OptionalKeys>;

const LEVELS: Record<KafkaLogLevel, number> = { nothing: 0, error: 1, warn: 2, info: 3, debug: 4 };

export function resolveKafkaLogOptions(options: KafkaLogOptions): ResolvedKafkaLogOptions {
  const o: ResolvedKafkaLogOptions = {
    maxMessageBytes: 1_000_000,
    connectionTimeoutMs: 3_000,
    requestTimeoutMs: 10_000,
    retries: 2,
    logLevel: 'warn',
    logSink: writeToStderr,
    readWaitMs: 1_000,
    fetchMaxWaitMs: 250,
    sessionTimeoutMs: 30_000,
    heartbeatIntervalMs: 3_000,
    bufferMaxRecords: 10_000,
    bufferMaxBytes: 16 * 1024 * 1024,
    ...(stripUndefined(options) as KafkaLogOptions),
  };
  const problems: string[] = [];
  if (!Array.isArray(o.brokers) || o.brokers.length === 0) problems.push('brokers: at least one host:port');
  else {
    for (const b of o.brokers)
      if (!/^[^\s:]+:\d+$/.test(b)) problems.push(`brokers: "${b}" is not host:port`);
  }
  if (!o.topic) problems.push('topic: required');
  if (!o.clientId) problems.push('clientId: required');
  if (o.groupId !== undefined && o.groupId === '')
    problems.push('groupId: empty (omit it for a producer-only log)');
  if (o.fixedPartition !== undefined && (!Number.isSafeInteger(o.fixedPartition) || o.fixedPartition < 0)) {
    problems.push(`fixedPartition: a partition number, got ${o.fixedPartition}`);
  }
  const positive: (keyof ResolvedKafkaLogOptions)[] = [
    'maxMessageBytes',
    'connectionTimeoutMs',
    'requestTimeoutMs',
    'readWaitMs',
    'fetchMaxWaitMs',
    'sessionTimeoutMs',
    'heartbeatIntervalMs',
    'bufferMaxRecords',
    'bufferMaxBytes',
  ];
  for (const key of positive) {
    const v = o[key];
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0)
      problems.push(`${key}: a positive integer, got ${v}`);
    else if (key === 'maxMessageBytes' && v <= RECORD_OVERHEAD_BYTES)
      problems.push(`maxMessageBytes: above the ${RECORD_OVERHEAD_BYTES}-byte record overhead, got ${v}`);
  }
  if (!Number.isSafeInteger(o.retries) || o.retries < 0)
    problems.push(`retries: a non-negative integer, got ${o.retries}`);
  if (o.heartbeatIntervalMs >= o.sessionTimeoutMs)
    problems.push('heartbeatIntervalMs: below sessionTimeoutMs');
  if (!(o.logLevel in LEVELS)) problems.push(`logLevel: one of ${Object.keys(LEVELS).join(', ')}`);
  if (problems.length > 0) {
    throw new QuarryError('invalid', `invalid Kafka log options: ${problems.join('; ')}`, {
      code: 'log_kafka_config_invalid',
      details: { problems },
    });
  }
  return o;
}

/**
 * Bytes a record costs in a batch besides its value and key: record header varints (~20 bytes) plus a
 * share of the 61-byte batch header, rounded up generously so a batch we accept is never refused.
 */
export const RECORD_OVERHEAD_BYTES = 100;

/** Retries of kafkajs: few and short, so a request fails within a few request timeouts, never minutes. */
export function retryOptions(o: ResolvedKafkaLogOptions): RetryOptions {
  return { retries: o.retries, initialRetryTime: 100, maxRetryTime: 1_000, factor: 0.2, multiplier: 2 };
}

export function kafkaClientConfig(o: ResolvedKafkaLogOptions): KafkaConfig {
  return {
    brokers: o.brokers,
    clientId: o.clientId,
    ssl: o.ssl,
    sasl: o.sasl,
    connectionTimeout: o.connectionTimeoutMs,
    requestTimeout: o.requestTimeoutMs,
    enforceRequestTimeout: true,
    retry: retryOptions(o),
    logLevel: toKafkaJsLevel(o.logLevel),
    logCreator: sinkLogCreator(o.logSink),
  } as KafkaConfig; // `sasl` is a union keyed by mechanism that our narrower type satisfies
}

/** A logger for the adapter's own lines, with the same level filter and sink as kafkajs's. */
export function adapterLogger(o: ResolvedKafkaLogOptions) {
  const threshold = LEVELS[o.logLevel];
  return (level: KafkaLogEntry['level'], message: string, extra?: Record<string, unknown>) => {
    if (LEVELS[level] <= threshold) o.logSink({ level, source: 'quarry.kafka-log', message, extra });
  };
}

function toKafkaJsLevel(level: KafkaLogLevel): KafkaJsLogLevel {
  switch (level) {
    case 'nothing':
      return KafkaJsLogLevel.NOTHING;
    case 'error':
      return KafkaJsLogLevel.ERROR;
    case 'warn':
      return KafkaJsLogLevel.WARN;
    case 'info':
      return KafkaJsLogLevel.INFO;
    case 'debug':
      return KafkaJsLogLevel.DEBUG;
  }
}

function sinkLogCreator(sink: (entry: KafkaLogEntry) => void): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, ...extra } = log;
      const name: KafkaLogEntry['level'] =
        level === KafkaJsLogLevel.ERROR
          ? 'error'
          : level === KafkaJsLogLevel.WARN
            ? 'warn'
            : level === KafkaJsLogLevel.INFO
              ? 'info'
              : 'debug';
      sink({ level: name, source: `kafkajs.${namespace}`, message, extra });
    };
}

function writeToStderr(entry: KafkaLogEntry): void {
  process.stderr.write(`${JSON.stringify({ time: new Date().toISOString(), ...entry })}\n`);
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
