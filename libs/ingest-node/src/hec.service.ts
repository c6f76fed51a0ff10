import { Inject, Injectable } from '@nestjs/common';
import { systemClock } from '@quarry/common';
import { decodeBody } from '@quarry/ingest-core';
import {
  hasDatasetCapability,
  METRICS_DATASET_KIND,
  type Principal,
  type StorageRuntime,
  STORAGE_RUNTIME,
} from '@quarry/server';
import { eventNumberOfFailure, eventsToNdjson, NDJSON } from './events-ndjson';
import { type HecBatch, type HecMetadata, parseHecEvents, parseHecRaw } from './hec-envelopes';
import { HEC_CODES, hecBody, HecRejection, type HecStatusBody } from './hec-status';
import { ackIdsOf, HecAcks } from './hec-acks';
import { IngestService } from './ingest.service';

export interface HecRequest {
  body: Buffer;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /** `?index=`: the dataset, over any envelope's `index`. */
  index: string | undefined;
  /** `X-Splunk-Request-Channel` / `?channel=` (a GUID): the answer carries an `ackId` on it. */
  channel?: string;
  /**
   * Told how many bytes the body decoded to (after gzip, zstd, …): the route charges those to the
   * token's ingest quota, not the bytes as sent (`noteIngestedBytes`, docs/reliability.md).
   */
  onDecoded?: (bytes: number) => void;
}

/**
 * Splunk HEC on top of the ingest service: decode (gzip, ...) ▶ read envelopes or raw lines ▶ pick the
 * dataset ▶ check the token may ingest into it ▶ ingest the events as NDJSON (same normalization,
 * limits, durability and region checks as `/v1/ingest`) ▶ answer `{"text":"Success","code":0}`.
 */
@Injectable()
export class HecService {
  private readonly acks: HecAcks;

  constructor(
    private readonly ingest: IngestService,
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
  ) {
    this.acks = new HecAcks(storage.metastore.db, () => systemClock.nowMs());
  }

  async ingestEvents(request: HecRequest, principal: Principal): Promise<HecStatusBody> {
    const text = await this.decodedText(request);
    return this.store(parseHecEvents(text), request, principal);
  }

  async ingestRaw(request: HecRequest, metadata: HecMetadata, principal: Principal): Promise<HecStatusBody> {
    const text = await this.decodedText(request);
    return this.store(parseHecRaw(text, request.contentType, metadata), request, principal);
  }

  /**
   * `POST /services/collector/ack`: which of the channel's ack ids are acknowledged (Splunk's indexer
   * acknowledgement). Quarry hands an id out only once its events are durable, so an id is true as soon
   * as it was answered; ids never handed out on the channel are false.
   */
  async ackStatus(channel: string | undefined, body: Buffer): Promise<{ acks: Record<string, boolean> }> {
    if (channel === undefined)
      throw new HecRejection(
        HEC_CODES.channelMissing,
        'pass the channel in X-Splunk-Request-Channel or ?channel=',
      );
    const ids = ackIdsOf(body.toString('utf8'));
    return { acks: await this.acks.status(channel, ids) };
  }

  /** Healthy once the node serves ingest (log replayed, log writable). */
  health(): { status: number; body: HecStatusBody } {
    try {
      this.storage.assertReady();
      return { status: 200, body: hecBody(HEC_CODES.healthy) };
    } catch {
      return { status: HEC_CODES.unhealthy.status, body: hecBody(HEC_CODES.unhealthy) };
    }
  }

  private async decodedText(request: HecRequest): Promise<string> {
    const decoded = await decodeBody(request.body, request.contentEncoding);
    request.onDecoded?.(decoded.length);
    return decoded.toString('utf8');
  }

  private async store(batch: HecBatch, request: HecRequest, principal: Principal): Promise<HecStatusBody> {
    const dataset = await this.datasetFor(request.index || batch.firstIndex, principal);
    const status = await this.ingest.ingest({
      dataset,
      body: eventsToNdjson(batch.events),
      contentType: NDJSON,
    });
    if (status.failed > 0) {
      // Splunk has no partial success: say which event failed, and that the others were stored.
      const first = status.failures?.[0]?.error ?? 'an event was rejected';
      throw new HecRejection(
        HEC_CODES.invalidDataFormat,
        `${status.failed} event(s) rejected, ${status.ingested} ingested; first: ${first}`,
        eventNumberOfFailure(first),
      );
    }
    // Durable now (the log acknowledged the append): the channel's next ack id is already true.
    if (request.channel !== undefined)
      return { ...hecBody(HEC_CODES.success), ackId: await this.acks.next(request.channel) };
    return hecBody(HEC_CODES.success);
  }

  /**
   * The dataset (Splunk index), in the OpenAPI document's order: `?index=`, the first envelope's
   * `index`, else the one dataset the token may ingest into. The token must hold ingest|create on it.
   */
  private async datasetFor(named: string | undefined, principal: Principal): Promise<string> {
    const grants = principal.datasetCapabilities;
    const ingestible = Object.keys(grants).filter((name) =>
      hasDatasetCapability(grants, name, 'ingest', 'create'),
    );
    if (ingestible.length === 0) {
      throw new HecRejection(
        HEC_CODES.invalidToken,
        'this token lacks the ingest|create capability on every dataset',
        undefined,
        403,
      );
    }
    let name = named;
    if (!name) {
      if (ingestible.length !== 1 || ingestible[0] === '*') {
        throw new HecRejection(
          HEC_CODES.incorrectIndex,
          'no index: pass ?index=<dataset> or "index" in the event (the token may ingest into more than one dataset)',
        );
      }
      name = ingestible[0];
    }
    if (!hasDatasetCapability(grants, name, 'ingest', 'create')) {
      throw new HecRejection(
        HEC_CODES.incorrectIndex,
        `this token lacks the ingest|create capability on dataset "${name}"`,
        undefined,
        403,
      );
    }
    await this.storage.refreshIfUnknown(name);
    const dataset = this.storage.registry.getByName(name);
    if (!dataset) throw new HecRejection(HEC_CODES.incorrectIndex, `dataset "${name}" not found`);
    if (dataset.kind === METRICS_DATASET_KIND) {
      throw new HecRejection(
        HEC_CODES.incorrectIndex,
        `dataset "${name}" is a metrics dataset (kind ${METRICS_DATASET_KIND}); HEC events go to event datasets`,
      );
    }
    return name;
  }
}
