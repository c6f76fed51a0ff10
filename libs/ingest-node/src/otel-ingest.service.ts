import { Inject, Injectable } from '@nestjs/common';
import { forbidden, invalid, notFound, QuarryError } from '@quarry/common';
import { decodeBody } from '@quarry/ingest-core';
import { hasDatasetCapability, type Principal, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { eventsToNdjson, NDJSON } from './events-ndjson';
import type { OtlpEncoding } from './metrics-ingest.service';
import { logsToEvents } from './otlp-logs-to-events';
import {
  decodeSignalJson,
  decodeSignalProtobuf,
  type OtlpEventSignal,
  type SignalPartialSuccess,
} from './otlp-signal-codec';
import { CUSTOM_ATTRIBUTES, spansToEvents } from './otlp-spans-to-events';
import { IngestService } from './ingest.service';

type RegisteredDataset = NonNullable<ReturnType<StorageRuntime['registry']['getByName']>>;

/** Datasets created without a kind. */
const DEFAULT_DATASET_KIND = 'axiom:events:v1';

/** The dataset kind each signal is stored in; plain event datasets are accepted too (docs/otel-and-hec.md). */
export const OTEL_DATASET_KIND: Record<OtlpEventSignal, string> = {
  traces: 'otel:traces:v1',
  logs: 'otel:logs:v1',
};

export interface OtelIngestRequest {
  signal: OtlpEventSignal;
  /** `x-axiom-dataset`. */
  dataset: string | undefined;
  body: Buffer;
  contentType: string | undefined;
  contentEncoding: string | undefined;
  /**
   * Told how many bytes the body decoded to (after gzip, zstd, …): the route charges those to the
   * token's ingest quota, not the bytes as sent (`noteIngestedBytes`, docs/reliability.md).
   */
  onDecoded?: (bytes: number) => void;
}

export interface OtelIngestResult {
  encoding: OtlpEncoding;
  partial: SignalPartialSuccess | null;
}

/**
 * OTLP/HTTP traces and logs: decode ▶ one event per span / log record (Axiom's field layout) ▶ the
 * ingest service as NDJSON (same normalization, limits, durability and region checks as `/v1/ingest`).
 * Spans the converter refuses and events the ingest path rejects are reported as OTLP partial success.
 */
@Injectable()
export class OtelIngestService {
  constructor(
    private readonly ingest: IngestService,
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
  ) {}

  async export(request: OtelIngestRequest, principal: Principal): Promise<OtelIngestResult> {
    const encoding = encodingOf(request.signal, request.contentType);
    const dataset = await this.checkDataset(request.signal, request.dataset, principal);
    const decoded = await decodeBody(request.body, request.contentEncoding);
    request.onDecoded?.(decoded.length);
    const otlp =
      encoding === 'protobuf'
        ? decodeSignalProtobuf(request.signal, decoded)
        : decodeSignalJson(request.signal, decoded);
    const converted = request.signal === 'traces' ? spansToEvents(otlp) : logsToEvents(otlp);
    let rejected = converted.rejected;
    const errors = [...converted.errors];
    if (converted.events.length > 0) {
      const status = await this.ingest.ingest({
        dataset,
        body: eventsToNdjson(converted.events),
        contentType: NDJSON,
      });
      rejected += status.failed;
      for (const f of status.failures ?? []) if (errors.length < 5) errors.push(f.error);
    }
    return { encoding, partial: rejected > 0 ? { rejected, errorMessage: errors.join('; ') } : null };
  }

  /** The caller may ingest into it, it exists, and it is of the signal's kind or a plain event dataset. */
  private async checkDataset(
    signal: OtlpEventSignal,
    name: string | undefined,
    principal: Principal,
  ): Promise<string> {
    if (!name) {
      throw invalid(`the x-axiom-dataset header is required and names the dataset the ${signal} go to`, {
        code: 'otlp_dataset_missing',
      });
    }
    if (!hasDatasetCapability(principal.datasetCapabilities, name, 'ingest', 'create')) {
      throw forbidden(`this token lacks the ingest|create capability on dataset "${name}"`, {
        code: 'auth_forbidden',
      });
    }
    await this.storage.refreshIfUnknown(name);
    const dataset = this.storage.registry.getByName(name);
    if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
    const wanted = OTEL_DATASET_KIND[signal];
    if (dataset.kind !== wanted && dataset.kind !== DEFAULT_DATASET_KIND) {
      throw invalid(
        `dataset "${name}" is of kind "${dataset.kind}"; OTLP ${signal} go to a dataset of kind "${wanted}" (or "${DEFAULT_DATASET_KIND}")`,
        { code: 'otlp_dataset_kind' },
      );
    }
    if (signal === 'traces' && dataset.kind === wanted) await this.declareCustomAttributes(dataset);
    return name;
  }

  /**
   * A trace dataset keeps the attributes that are no semantic convention in the map field
   * `attributes.custom`, as Axiom's do (`['attributes.custom']['app.x']`): declared on the first export
   * into it (and visible in `GET /v2/datasets/{id}/mapfields`). Events stored before stay flattened.
   */
  private async declareCustomAttributes(dataset: RegisteredDataset): Promise<void> {
    if (dataset.mapFields.includes(CUSTOM_ATTRIBUTES)) return;
    const updated = await this.storage.metastore.datasets.update(dataset.id, {
      mapFields: [...dataset.mapFields, CUSTOM_ATTRIBUTES],
    });
    this.storage.registry.put(updated);
  }
}

/** The body encoding of a request (and of its answer); 415 for anything but protobuf and JSON. */
function encodingOf(signal: OtlpEventSignal, contentType: string | undefined): OtlpEncoding {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
  if (type === 'application/json') return 'json';
  throw new QuarryError(
    'unsupported_media_type',
    `unsupported Content-Type "${type}" for OTLP ${signal}; use application/x-protobuf or application/json`,
    { code: 'otlp_unsupported_media_type' },
  );
}
