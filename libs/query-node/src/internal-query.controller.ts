import { Controller, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { disconnectSignal, rawBodyOf } from '@quarry/nest-kit';
import {
  Access,
  assertClusterCaller,
  decodeRpc,
  encodeRpc,
  outcomeOf,
  QuarryMetrics,
  RPC_CONTENT_TYPE,
  STORAGE_RUNTIME,
  type AggregateShareRequest,
  type AggregateShareResponse,
  type StorageRuntime,
} from '@quarry/server';

/**
 * The query nodes' internal RPC (docs/architecture.md, "Distributed queries"): a coordinator's share of a
 * summarize, computed here. Not a user route: no user token is accepted (user authentication is skipped
 * and the cluster secret checked instead), and the gateway never forwards `/internal/`.
 */
@Controller()
export class InternalQueryController {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly metrics: QuarryMetrics,
  ) {}

  @Post('internal/v1/aggregate')
  @HttpCode(200)
  @Access({ tokens: 'api', public: true })
  async aggregate(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    assertClusterCaller(this.storage.config.clusterSecret, request.headers);
    const share = decodeRpc<AggregateShareRequest>(rawBodyOf(request), 'the request');
    const started = Date.now();
    // The coordinator closes the connection when its client went away or its deadline for this share
    // passed: the share stops at its next block instead of finishing for nobody.
    const signal = disconnectSignal(reply);
    let partials;
    try {
      partials = await this.storage.runAggregateShare(share, signal);
      this.metrics.sharesServed.inc({ outcome: 'ok' });
    } catch (err) {
      this.metrics.sharesServed.inc({ outcome: signal.aborted ? 'aborted' : outcomeOf(err) });
      throw err;
    }
    const answer: AggregateShareResponse = {
      node: this.storage.config.nodeId,
      partials,
      elapsedMs: Date.now() - started,
    };
    reply.header('content-type', RPC_CONTENT_TYPE);
    return encodeRpc(answer);
  }
}
