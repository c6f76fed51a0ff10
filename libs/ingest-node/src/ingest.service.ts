import { Inject, Injectable } from '@nestjs/common';
import { systemClock, type Clock } from '@quarry/common';
import type { IngestStatus } from '@quarry/contracts';
import {
  outcomeOf,
  QuarryMetrics,
  type StorageRuntime,
  STORAGE_RUNTIME,
  type IngestBodyOptions,
} from '@quarry/server';

export interface IngestRequest extends IngestBodyOptions {
  dataset: string;
  body: Buffer;
}

/**
 * decode ▶ parse ▶ normalize ▶ columns (on a worker, `workers/cpu-tasks.ts`) ▶ append to the log (durable)
 * ▶ make visible to queries ▶ answer. The status is returned only after the log acknowledged the fsync.
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
    const dataset = await this.storage.resolveDataset(request.dataset);
    // Another region's dataset: its Kafka and object store are there (421 says where).
    this.storage.regions.assertLocal(dataset, 'ingest');

    // Parsing and building the columns happen on a worker; the event loop appends the record and answers.
    // The event loop no longer needs the body: it may move to the worker rather than be copied.
    const { dataset: _name, ...bodyAndOptions } = request;
    const { status, records } = await this.storage.cpu.run(
      'ingest',
      {
        ...bodyAndOptions,
        datasetId: dataset.id,
        mapFields: [...dataset.mapFields],
        nowMs: this.clock.nowMs(),
        maxRecordBytes: this.storage.config.kafka?.maxMessageBytes,
      },
      [request.body],
    );
    if (records.length > 0) {
      // One append: the log acknowledges all of the request's records or answers an error.
      const positions = await this.storage.log.append(
        dataset.id,
        records.map((r) => r.payload),
      );
      // Embedded: this process answers queries from its own tail. Cluster: query nodes follow the log.
      if (this.storage.shape === 'embedded')
        records.forEach((r, i) => this.storage.tail.add(positions[i], r.payload, r.summary));
    }
    return status;
  }
}
