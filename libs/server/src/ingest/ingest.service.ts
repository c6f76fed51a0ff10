import { Inject, Injectable } from '@nestjs/common';
import { notFound, systemClock, type Clock } from '@quarry/common';
import type { IngestStatus } from '@quarry/contracts';
import { outcomeOf, QuarryMetrics } from '../observability/metrics';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';
import type { IngestBodyOptions } from '../workers/cpu-tasks';

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
    const dataset = this.storage.registry.getByName(request.dataset);
    if (!dataset) throw notFound(`dataset "${request.dataset}" not found`, { code: 'dataset_not_found' });

    // Parsing and building the columns happen on a worker; the event loop appends the record and answers.
    // The event loop no longer needs the body: it may move to the worker rather than be copied.
    const { dataset: _name, ...bodyAndOptions } = request;
    const { status, record } = await this.storage.cpu.run(
      'ingest',
      {
        ...bodyAndOptions,
        datasetId: dataset.id,
        mapFields: [...dataset.mapFields],
        nowMs: this.clock.nowMs(),
      },
      [request.body],
    );
    if (record !== null) {
      const [position] = await this.storage.log.append(dataset.id, [record.payload]);
      this.storage.tail.add(position, record.payload, record.summary);
    }
    return status;
  }
}
