import * as fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { KafkaIngestLog, type KafkaLogOptions } from '@quarry/log';
import type { KafkaConfig } from '../config/config';

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
    heartbeatIntervalMs: Math.min(3_000, Math.floor(kafka.sessionTimeoutMs / 3)),
  };
  if (use === 'compact')
    options.groupId = log === 'events' ? kafka.compactorGroup : `${kafka.compactorGroup}-metrics`;
  if (use === 'follow') options.groupId = `quarry-follow-${log}-${nodeId}-${randomBytes(4).toString('hex')}`;
  // Metrics keep one order of points: every record goes to partition 0 (docs/adr/0005).
  if (log === 'metrics' && use === 'append') options.fixedPartition = 0;
  return KafkaIngestLog.open(options);
}
