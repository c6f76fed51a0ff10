import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { KafkaIngestLog, type KafkaLogOptions } from '@quarry/log';
import type { KafkaConfig } from '../config/config';

const FOLLOW_FETCH_WAIT_MS = 10;

/** What a process does with a topic: produce to it, compact it in the shared group, or follow all of it. */
export type KafkaLogUse = 'append' | 'compact' | 'follow';

/**
 * Opens the Kafka log of `topic` for one use. Compactors share one consumer group, so Kafka spreads
 * the partitions over them and moves a dead compactor's partitions to the others; a query node follows
 * every partition in a group of its own (it never commits: where to start comes from the metastore).
 */
export function openKafkaLog(
  kafka: KafkaConfig,
  log: 'events' | 'metrics',
  use: KafkaLogUse,
  nodeId: string,
): Promise<KafkaIngestLog> {
  const topic = log === 'events' ? kafka.topic : kafka.metricsTopic;
  const options: KafkaLogOptions = {
    brokers: kafka.brokers,
    topic,
    clientId: `${kafka.clientId}-${nodeId}`,
    ssl: kafka.ssl
      ? {
          rejectUnauthorized: kafka.sslRejectUnauthorized,
          ...(kafka.sslCaFile ? { ca: [fs.readFileSync(kafka.sslCaFile, 'utf8')] } : {}),
        }
      : undefined,
    sasl: kafka.sasl,
    maxMessageBytes: kafka.maxMessageBytes,
    sessionTimeoutMs: kafka.sessionTimeoutMs,
    logLevel: kafka.logLevel,
    bufferMaxBytes: kafka.bufferBytes,
    heartbeatIntervalMs: Math.min(3_000, Math.floor(kafka.sessionTimeoutMs / 3)),
  };
  // Compactors split the partitions through leases in the metastore (PartitionOwnership), not a shared
  // consumer group: each reads through a group of its own and restricts itself to what it owns.
  if (use === 'compact')
    options.groupId = `${kafka.compactorGroup}-${log}-${nodeId}-${randomBytes(4).toString('hex')}`;
  if (use === 'follow') {
    options.groupId = `quarry-follow-${log}-${nodeId}-${randomBytes(4).toString('hex')}`;
    // A query waits for its node to have every acknowledged record: poll often. (A broker answers a
    // long poll as soon as data arrives, but not every Kafka-protocol server does, and a short wait
    // costs a few small requests a second on an idle topic.)
    options.fetchMaxWaitMs = FOLLOW_FETCH_WAIT_MS;
  }
  // Metrics keep one order of points: every record goes to partition 0 (docs/adr/0005).
  if (log === 'metrics' && use === 'append') options.fixedPartition = 0;
  return KafkaIngestLog.open(options);
}
