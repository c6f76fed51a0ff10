import { Controller, HttpCode, Inject, Logger, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { notFound, systemClock } from '@quarry/common';
import { jsonBodyOf } from '@quarry/nest-kit';
import { Access, type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { blocksToTrim, parseGoDuration } from './dataset-trim';
import { validateBody } from './openapi-validation';

/**
 * `POST /v2/datasets/{id}/trim` really deletes data older than `maxDuration`: it first compacts the log
 * (so recent-but-old-timestamped events are in blocks; in the cluster shape it waits for the compactors
 * to catch up), then drops every block whose newest event is older than the cutoff, from the metastore,
 * the in-memory index and the object store. Blocks straddling the cutoff are kept whole (trim is
 * block-granular).
 *
 * `POST /v2/datasets/{id}/vacuum` has nothing to reclaim: fields are stored per block, so there is no
 * global field table to vacuum. It validates the dataset, triggers a compaction and answers 200 `{}`.
 */
@Controller()
export class DatasetTrimController {
  private readonly logger = new Logger('datasets');
  private readonly clock = systemClock;

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  @Post('v2/datasets/:id/trim')
  @HttpCode(204)
  @Access({ tokens: 'any', dataset: { param: 'id', capability: 'trim', action: 'update' } })
  async trimV2(@Param('id') id: string, @Req() request: FastifyRequest): Promise<void> {
    await this.trim(id, request);
  }

  /** v1 answers 200 `{numDeleted}` (deprecated and meaningless upstream; here the number of events). */
  @Post('v1/datasets/:id/trim')
  @HttpCode(200)
  @Access({ tokens: 'any', dataset: { param: 'id', capability: 'trim', action: 'update' } })
  async trimV1(@Param('id') id: string, @Req() request: FastifyRequest) {
    return { numDeleted: await this.trim(id, request) };
  }

  @Post('v2/datasets/:id/vacuum')
  @HttpCode(200)
  @Access({ tokens: 'any', dataset: { param: 'id', capability: 'vacuum', action: 'update' } })
  async vacuum(@Param('id') id: string) {
    this.datasetId(id);
    await this.storage.compactNow();
    return {};
  }

  /** Deletes the blocks older than the cutoff; returns the number of events removed. */
  private async trim(name: string, request: FastifyRequest): Promise<number> {
    const body = validateBody<{ maxDuration: string }>(
      'POST /datasets/{dataset_id}/trim',
      jsonBodyOf(request),
    );
    const maxMs = parseGoDuration(body.maxDuration);
    const datasetId = this.datasetId(name);
    const cutoffMs = this.clock.nowMs() - maxMs;
    await this.storage.compactNow();
    return this.storage.lock.run(async () => {
      // The metastore's list: in the cluster shape this node keeps no block index of its own.
      const doomed = blocksToTrim(await this.storage.metastore.blocks.listBlocks(datasetId), cutoffMs);
      if (doomed.length === 0) return 0;
      const removed = await this.storage.metastore.blocks.swapBlocks(
        doomed.map((b) => b.id),
        [],
      );
      const removedIds = new Set(removed.map((b) => b.id));
      if (this.storage.shape === 'embedded') {
        // Rebuild the dataset's index synchronously (no await between), so a query sees old or new, never a gap.
        const kept = this.storage.blocks.list(datasetId).filter((b) => !removedIds.has(b.id));
        this.storage.blocks.setDataset(datasetId, kept);
      }
      let events = 0;
      for (const block of removed) {
        events += block.rowCount;
        this.storage.catalog.forgetBlock(block.objectKey);
        await this.storage.objects.delete(block.objectKey);
      }
      this.logger.log(`trimmed ${removed.length} blocks (${events} events) of dataset "${name}"`);
      return events;
    });
  }

  private datasetId(name: string): string {
    const dataset = this.storage.registry.getByName(name);
    if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
    return dataset.id;
  }
}
