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
  type RowsShareRequest,
  type RowsShareResponse,
  type MplShareRequest,
  type MplShareResponse,
  type StorageRuntime,
} from '@quarry/server';

/**
 * The query nodes' internal RPC (docs/architecture.md, "Distributed queries"): a coordinator's share of a
 * summarize, of a take or top, or of an MPL query's series, computed here. Not a user route: no user token is accepted (user authentication is skipped
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
  aggregate(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    return this.serve(request, reply, async (share: AggregateShareRequest, signal) => {
      const partials = await this.storage.runAggregateShare(share, signal);
      return (elapsedMs: number): AggregateShareResponse => ({ node: this.nodeId, partials, elapsedMs });
    });
  }

  @Post('internal/v1/rows')
  @HttpCode(200)
  @Access({ tokens: 'api', public: true })
  rows(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    return this.serve(request, reply, async (share: RowsShareRequest, signal) => {
      const rows = await this.storage.runRowsShare(share, signal);
      return (elapsedMs: number): RowsShareResponse => ({ node: this.nodeId, ...rows, elapsedMs });
    });
  }

  @Post('internal/v1/mpl')
  @HttpCode(200)
  @Access({ tokens: 'api', public: true })
  mpl(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<Buffer> {
    return this.serve(request, reply, async (share: MplShareRequest, signal) => {
      const part = await this.storage.runMplShare(share, signal);
      return (elapsedMs: number): MplShareResponse => ({ node: this.nodeId, part, elapsedMs });
    });
  }

  private get nodeId(): string {
    return this.storage.config.nodeId;
  }

  /** Checks the caller, decodes the share, runs it (stopped if the coordinator hangs up), encodes. */
  private async serve<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    run: (share: T, signal: AbortSignal) => Promise<(elapsedMs: number) => unknown>,
  ): Promise<Buffer> {
    assertClusterCaller(this.storage.config.clusterSecret, request.headers);
    const share = decodeRpc<T>(rawBodyOf(request), 'the request');
    const started = Date.now();
    // The coordinator closes the connection when its client went away or its deadline for this share
    // passed: the share stops at its next block instead of finishing for nobody.
    const signal = disconnectSignal(reply);
    let answer;
    try {
      answer = await run(share, signal);
      this.metrics.sharesServed.inc({ outcome: 'ok' });
    } catch (err) {
      this.metrics.sharesServed.inc({ outcome: signal.aborted ? 'aborted' : outcomeOf(err) });
      throw err;
    }
    reply.header('content-type', RPC_CONTENT_TYPE);
    return encodeRpc(answer(Date.now() - started));
  }
}
