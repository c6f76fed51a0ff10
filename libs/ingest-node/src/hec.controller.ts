import { Controller, Get, HttpCode, Post, Query, Req, Res, UseFilters } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { noteIngestedBytes, rawBodyOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { channelOf } from './hec-acks';
import { HecExceptionFilter } from './hec-exception.filter';
import type { HecStatusBody } from './hec-status';
import { type HecRequest, HecService } from './hec.service';

/** The dataset comes from `?index=`, the envelope or the token, so the service checks ingest|create. */
const HEC_ACCESS = { tokens: 'api' } as const;

/**
 * Splunk HTTP Event Collector (v1-edge-hec.json). Authorization: `Splunk <token>`, `Bearer <token>` or
 * Basic `x:<token>` (see `HecAuthSchemes`). Every answer, errors included, is HEC's `{text, code}`; a
 * request on a data channel (`X-Splunk-Request-Channel`) is answered with its `ackId` as well.
 */
@Controller()
@UseFilters(HecExceptionFilter)
export class HecController {
  constructor(private readonly hec: HecService) {}

  // `/event/1.0` and `/raw/1.0`: the versioned paths Splunk's logging libraries post to by default.
  @Post(['services/collector/event', 'services/collector', 'services/collector/event/1.0'])
  @HttpCode(200)
  @Access(HEC_ACCESS)
  event(@Req() request: FastifyRequest): Promise<HecStatusBody> {
    return this.hec.ingestEvents(hecRequestOf(request), principalOf(request));
  }

  @Post(['services/collector/raw', 'services/collector/raw/1.0'])
  @HttpCode(200)
  @Access(HEC_ACCESS)
  raw(
    @Req() request: FastifyRequest,
    @Query('host') host: string | undefined,
    @Query('source') source: string | undefined,
    @Query('sourcetype') sourcetype: string | undefined,
  ): Promise<HecStatusBody> {
    return this.hec.ingestRaw(hecRequestOf(request), { host, source, sourcetype }, principalOf(request));
  }

  /** Indexer acknowledgement (Splunk's `/services/collector/ack`; not in v1-edge-hec.json). */
  @Post('services/collector/ack')
  @HttpCode(200)
  @Access(HEC_ACCESS)
  ack(@Req() request: FastifyRequest): Promise<{ acks: Record<string, boolean> }> {
    const { channel, body } = hecRequestOf(request);
    return this.hec.ackStatus(channel, body);
  }

  @Get(['services/collector/health', 'services/collector/health/1.0'])
  @Access({ tokens: 'any', public: true })
  health(@Res({ passthrough: true }) reply: FastifyReply): HecStatusBody {
    const { status, body } = this.hec.health();
    reply.status(status);
    return body;
  }
}

function hecRequestOf(request: FastifyRequest): HecRequest {
  const query = request.query as Record<string, string | undefined>;
  const header = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  return {
    body: rawBodyOf(request),
    contentType: header('content-type'),
    contentEncoding: header('content-encoding'),
    index: query.index?.trim() || undefined,
    channel: channelOf(header('x-splunk-request-channel'), query.channel),
    // The ingest quota counts the body after decompression, as /v1/datasets/{id}/ingest does.
    onDecoded: (bytes) => noteIngestedBytes(request, bytes),
  };
}
