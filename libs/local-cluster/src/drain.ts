import { Kafka, logLevel } from 'kafkajs';
import { Client } from 'pg';

/**
 * Waits until the compactors have committed everything the cluster's Kafka topics hold (events and
 * metrics), so nothing acknowledged is lost when an in-memory Kafka (the local mock) goes away. Returns
 * false when `timeoutMs` passes first.
 */
export async function waitForCompaction(
  options: { metastoreUrl: string; brokers: string; topics: { events: string; metrics: string } },
  timeoutMs: number,
): Promise<boolean> {
  const kafka = new Kafka({
    brokers: options.brokers.split(','),
    logLevel: logLevel.NOTHING,
    retry: { retries: 1 },
  });
  const admin = kafka.admin();
  const db = new Client({ connectionString: options.metastoreUrl });
  try {
    await admin.connect();
    await db.connect();
    const high = async (topic: string) =>
      new Map((await admin.fetchTopicOffsets(topic)).map((o) => [o.partition, Number(o.high)]));
    const events = await high(options.topics.events);
    const metrics = await high(options.topics.metrics);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const committed = new Map(
        (await db.query('SELECT partition, committed_offset FROM log_offsets')).rows.map((r) => [
          Number(r.partition),
          Number(r.committed_offset),
        ]),
      );
      const metricsRows = (
        await db.query('SELECT committed_offset FROM metric_log_offsets WHERE partition = 0')
      ).rows;
      const metricsCommitted = metricsRows.length > 0 ? Number(metricsRows[0].committed_offset) : 0;
      const done =
        [...events].every(([p, end]) => (committed.get(p) ?? 0) >= end) &&
        metricsCommitted >= (metrics.get(0) ?? 0);
      if (done) return true;
      if (Date.now() > deadline) return false;
      await new Promise((r) => setTimeout(r, 200));
    }
  } finally {
    await admin.disconnect().catch(() => undefined);
    await db.end().catch(() => undefined);
  }
}
