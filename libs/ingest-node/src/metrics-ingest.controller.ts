import { Controller, Headers, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteIngestedBytes, rawBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { encodeOtlpResponse } from './otlp-codec';
import { MetricsIngestService } from './metrics-ingest.service';

@Controller()
export class MetricsIngestController {
  constructor(private readonly ingest: MetricsIngestService) {}

  /**
   * OTLP/HTTP metrics export (mpl.md §1.1). The dataset comes from `x-axiom-metrics-dataset`, so its
   * ingest capability is checked by the service, not by a route-parameter rule.
   */
  @Post('v1/metrics')
  @HttpCode(200)
  @Access({ tokens: 'api' })
  async export(
    @Headers('x-axiom-metrics-dataset') dataset: string | undefined,
    @Headers('content-type') contentType: string | undefined,
    @Headers('content-encoding') contentEncoding: string | undefined,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer | object> {
    const result = await this.ingest.ingest(
      {
        dataset: dataset?.trim() || undefined,
        body: rawBodyOf(request),
        contentType,
        contentEncoding,
        // The ingest quota counts the body after decompression, as /v1/datasets/{id}/ingest does.
        onDecoded: (bytes) => noteIngestedBytes(request, bytes),
      },
      principalOf(request),
    );
    // Answer in the request's encoding, as OTLP/HTTP requires.
    if (result.encoding === 'protobuf') reply.header('content-type', 'application/x-protobuf');
    return encodeOtlpResponse(result.partial, result.encoding);
  }
}
