import { Controller, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { disconnectSignal, jsonBodyOf, traceIdOf } from '@quarry/nest-kit';
import { Access, principalOf } from '@quarry/server';
import { BatchQueryService } from './batch-query.service';
import { parseBatchRequest } from './batch-request';
import { sseEvent } from './sse';

/**
 * Batches of APL and MPL queries on the edge (api.md §4.6, docs/legacy-query.md "Batch queries"): API
 * tokens only. The answer is `text/event-stream`: one `result` event per query in the order they finish
 * (`{queryId, kind, data}` or `{queryId, kind, error}`), then one `done` event. A batch that cannot be read
 * at all is refused with an ordinary JSON error before the stream starts.
 */
@Controller()
export class BatchQueryController {
  constructor(private readonly batches: BatchQueryService) {}

  @Post('v1/query/batch')
  @Access({ tokens: 'api' })
  async batch(
    @Query() query: Record<string, unknown>,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const batch = parseBatchRequest(jsonBodyOf(request), query);
    const principal = principalOf(request);
    this.batches.authorize(principal);
    const signal = disconnectSignal(reply);
    // From here on the stream is ours: errors are events, not statuses.
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      'x-accel-buffering': 'no',
      'x-axiom-trace-id': traceIdOf(request),
    });
    let failed = 0;
    try {
      await this.batches.run(
        batch,
        principal,
        (outcome) => {
          if ('error' in outcome) failed++;
          out.write(sseEvent('result', outcome, outcome.queryId));
        },
        signal,
      );
      out.write(sseEvent('done', { queries: batch.items.length, failed }));
    } finally {
      out.end();
    }
  }
}
