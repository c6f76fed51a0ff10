import { Controller, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteIngestedBytes, rawBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { encodeSignalResponse, type OtlpEventSignal } from './otlp-signal-codec';
import { OtelIngestService } from './otel-ingest.service';

/**
 * OTLP/HTTP traces and logs (docs/otel-and-hec.md), as Axiom's edge takes them: the dataset comes from
 * `x-axiom-dataset`, so its ingest capability is checked by the service, not by a route-parameter rule.
 */
@Controller()
export class OtelIngestController {
  constructor(private readonly otel: OtelIngestService) {}

  @Post('v1/traces')
  @HttpCode(200)
  @Access({ tokens: 'api' })
  traces(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.export('traces', request, reply);
  }

  @Post('v1/logs')
  @HttpCode(200)
  @Access({ tokens: 'api' })
  logs(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return this.export('logs', request, reply);
  }

  private async export(
    signal: OtlpEventSignal,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<Buffer | object> {
    const header = (name: string) => {
      const value = request.headers[name];
      return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
    };
    const result = await this.otel.export(
      {
        signal,
        dataset: header('x-axiom-dataset'),
        body: rawBodyOf(request),
        contentType: header('content-type'),
        contentEncoding: header('content-encoding'),
        // The ingest quota counts the body after decompression, as /v1/datasets/{id}/ingest does.
        onDecoded: (bytes) => noteIngestedBytes(request, bytes),
      },
      principalOf(request),
    );
    // Answer in the request's encoding, as OTLP/HTTP requires.
    if (result.encoding === 'protobuf') reply.header('content-type', 'application/x-protobuf');
    return encodeSignalResponse(signal, result.partial, result.encoding);
  }
}
