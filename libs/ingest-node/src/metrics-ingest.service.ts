import { Inject, Injectable } from '@nestjs/common';
import { invalid, QuarryError, unavailable } from '@quarry/common';
import { decodeBody } from '@quarry/ingest-core';
import {
  type Principal,
  outcomeOf,
  QuarryMetrics,
  type StorageRuntime,
  STORAGE_RUNTIME,
  metricsDataset,
} from '@quarry/server';
import { decodeOtlpJson, decodeOtlpProtobuf, type PartialSuccess } from './otlp-codec';
import { otlpToSeries } from './otlp-to-series';

export type OtlpEncoding = 'protobuf' | 'json';

export interface MetricsIngestRequest {
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

export interface MetricsIngestResult {
  encoding: OtlpEncoding;
  partial: PartialSuccess | null;
}

/** OTLP/HTTP metrics: decode ▶ flatten to series ▶ log (fdatasync) ▶ visible ▶ answer. */
@Injectable()
export class MetricsIngestService {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly metrics: QuarryMetrics,
  ) {}

  /** The body encoding of a request (and of its answer); 415 for anything but protobuf and JSON. */
  static encodingOf(contentType: string | undefined): OtlpEncoding {
    const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (type === 'application/x-protobuf' || type === 'application/protobuf') return 'protobuf';
    if (type === 'application/json') return 'json';
    throw new QuarryError(
      'unsupported_media_type',
      `unsupported Content-Type "${type}" for OTLP metrics; use application/x-protobuf (or application/json)`,
      { code: 'otlp_unsupported_media_type' },
    );
  }

  async ingest(request: MetricsIngestRequest, principal: Principal): Promise<MetricsIngestResult> {
    try {
      const result = await this.ingestOnce(request, principal);
      this.metrics.ingestRequests.inc({ outcome: 'ok' });
      return result;
    } catch (err) {
      this.metrics.ingestRequests.inc({ outcome: outcomeOf(err) });
      throw err;
    }
  }

  private async ingestOnce(
    request: MetricsIngestRequest,
    principal: Principal,
  ): Promise<MetricsIngestResult> {
    if (!request.dataset) {
      throw invalid('the x-axiom-metrics-dataset header is required and names a metrics dataset', {
        code: 'metrics_dataset_missing',
      });
    }
    const encoding = MetricsIngestService.encodingOf(request.contentType);
    await this.storage.refreshIfUnknown(request.dataset);
    const dataset = metricsDataset(this.storage, principal, request.dataset, 'ingest');
    this.storage.assertReady();
    const log = this.storage.metrics.log?.stats();
    if (log?.failed) {
      throw unavailable(
        `the metrics log failed and stopped accepting writes: ${log.failure ?? 'unknown error'}`,
        {
          retryAfterSeconds: 30,
        },
      );
    }
    const decoded = await decodeBody(request.body, request.contentEncoding, {
      maxCompressedBytes: this.storage.config.maxBodyBytes,
      maxDecompressedBytes: this.storage.config.metricsMaxBodyBytes,
    });
    request.onDecoded?.(decoded.length);
    const otlp = encoding === 'protobuf' ? decodeOtlpProtobuf(decoded) : decodeOtlpJson(decoded);
    const converted = otlpToSeries(otlp);
    if (converted.series.length > 0) {
      const points = await this.storage.metrics.append({ datasetId: dataset.id, series: converted.series });
      this.metrics.metricPoints.inc({ result: 'ingested' }, points);
    }
    if (converted.rejected > 0) this.metrics.metricPoints.inc({ result: 'rejected' }, converted.rejected);
    return {
      encoding,
      partial:
        converted.rejected > 0
          ? { rejectedDataPoints: converted.rejected, errorMessage: converted.errors.join('; ') }
          : null,
    };
  }
}
