import { Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { IngestStatus } from '@quarry/contracts';
import { noteIngestedBytes, rawBodyOf } from '@quarry/nest-kit';
import { Access } from '@quarry/server';
import { IngestService, type IngestRequest } from './ingest.service';

const INGEST_ACCESS = {
  tokens: 'api',
  dataset: { param: 'dataset', capability: 'ingest', action: 'create' },
} as const;

@Controller()
export class IngestController {
  constructor(private readonly ingest: IngestService) {}

  /** Edge ingest (service-spec §4.1). */
  @Post('v1/ingest/:dataset')
  @HttpCode(200)
  @Access(INGEST_ACCESS)
  ingestEdge(@Param('dataset') dataset: string, @Req() request: FastifyRequest): Promise<IngestStatus> {
    return this.ingestCharged(dataset, request);
  }

  /** Legacy ingest on the main API; the official clients use it when no edge is configured. */
  @Post('v1/datasets/:dataset/ingest')
  @HttpCode(200)
  @Access(INGEST_ACCESS)
  ingestLegacy(@Param('dataset') dataset: string, @Req() request: FastifyRequest): Promise<IngestStatus> {
    return this.ingestCharged(dataset, request);
  }

  /** The ingest quota counts the body after decompression (`processedBytes`), not as sent. */
  private async ingestCharged(dataset: string, request: FastifyRequest): Promise<IngestStatus> {
    const status = await this.ingest.ingest(toIngestRequest(dataset, request));
    noteIngestedBytes(request, status.processedBytes);
    return status;
  }
}

function toIngestRequest(dataset: string, request: FastifyRequest): IngestRequest {
  const query = request.query as Record<string, string | undefined>;
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  return {
    dataset,
    body: rawBodyOf(request),
    contentType: header('content-type'),
    contentEncoding: header('content-encoding'),
    timestampField: query['timestamp-field'],
    timestampFormat: query['timestamp-format'],
    csvDelimiter: query['csv-delimiter'],
    csvFieldsHeader: header('x-axiom-csv-fields'),
    labelsHeader: header('x-axiom-event-labels'),
  };
}
