import { Inject, Injectable } from '@nestjs/common';
import { formatRfc3339, notFound, systemClock, type Clock } from '@quarry/common';
import { batchFromEvents, type ColumnBatch, type IngestStatus } from '@quarry/contracts';
import {
  decodeBody,
  DEFAULT_INGEST_LIMITS,
  parseEventLabels,
  parseIngestBody,
  processedBytesFor,
} from '@quarry/ingest-core';
import { outcomeOf, QuarryMetrics } from '../observability/metrics';
import { encodeLogRecord } from '../storage/log-codec';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';

export interface IngestRequest {
  dataset: string;
  body: Buffer;
  contentType?: string;
  contentEncoding?: string;
  timestampField?: string;
  timestampFormat?: string;
  csvDelimiter?: string;
  csvFieldsHeader?: string;
  labelsHeader?: string;
}

/**
 * decode ▶ parse ▶ normalize ▶ append to the log (durable) ▶ make visible to queries ▶ answer.
 * The status is returned only after the log acknowledged the fsync.
 */
@Injectable()
export class IngestService {
  private readonly clock: Clock = systemClock;

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly metrics: QuarryMetrics,
  ) {}

  async ingest(request: IngestRequest): Promise<IngestStatus> {
    try {
      const status = await this.ingestOnce(request);
      this.metrics.ingestRequests.inc({ outcome: 'ok' });
      this.metrics.ingestEvents.inc({ result: 'ingested' }, status.ingested);
      this.metrics.ingestEvents.inc({ result: 'failed' }, status.failed);
      this.metrics.ingestBytes.inc(status.processedBytes);
      return status;
    } catch (err) {
      this.metrics.ingestRequests.inc({ outcome: outcomeOf(err) });
      throw err;
    }
  }

  private async ingestOnce(request: IngestRequest): Promise<IngestStatus> {
    this.storage.assertReady();
    const dataset = this.storage.registry.getByName(request.dataset);
    if (!dataset) throw notFound(`dataset "${request.dataset}" not found`, { code: 'dataset_not_found' });

    const labels = parseEventLabels(request.labelsHeader);
    const decoded = await decodeBody(request.body, request.contentEncoding, DEFAULT_INGEST_LIMITS);
    const nowMs = this.clock.nowMs();
    const { status, batch } = parseToBatch(request, decoded, labels, dataset.mapFields, nowMs);
    if (batch !== null) {
      // The columns are built once: logged (v2 record), then kept in the tail for queries and compaction.
      const record = { datasetId: dataset.id, sysTime: nowMs, batch };
      const [position] = await this.storage.log.append(dataset.id, [encodeLogRecord(record)]);
      this.storage.tail.add({ ...position, ...record });
    }
    return status;
  }
}

/**
 * Parses and normalizes the body and builds its column batch. Synchronous and separate from the request's
 * async flow on purpose: only the batch is referenced across the fsync wait, so the per-event objects die
 * young instead of being promoted to the old generation.
 */
function parseToBatch(
  request: IngestRequest,
  decoded: Buffer,
  labels: Record<string, unknown> | null,
  mapFields: Iterable<string>,
  nowMs: number,
): { status: IngestStatus; batch: ColumnBatch | null } {
  const parsed = parseIngestBody(decoded, {
    contentType: request.contentType,
    timestampField: request.timestampField || undefined,
    timestampFormat: request.timestampFormat || undefined,
    csvDelimiter: request.csvDelimiter || undefined,
    csvFields: request.csvFieldsHeader,
    labels,
    mapFields,
    nowMs,
    limits: DEFAULT_INGEST_LIMITS,
  });
  const failedAt = formatRfc3339(nowMs);
  const status: IngestStatus = {
    ingested: parsed.events.length,
    failed: parsed.failures.length,
    failures: parsed.failures.map((f) => ({ timestamp: failedAt, error: f.error })),
    processedBytes: processedBytesFor(decoded, request.labelsHeader),
    blocksCreated: 0,
    walLength: parsed.events.length,
  };
  return { status, batch: parsed.events.length > 0 ? batchFromEvents(parsed.events, nowMs) : null };
}
