import { Inject, Injectable, Logger } from '@nestjs/common';
import { notFound } from '@quarry/common';
import type { DatasetRecord } from '@quarry/metastore';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';
import type { DatasetInput } from './dataset-validation';

/** Dataset lifecycle. Deleting a dataset removes its blocks, its tail and its schema. */
@Injectable()
export class DatasetsService {
  private readonly logger = new Logger('datasets');

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  list(): DatasetRecord[] {
    return this.storage.registry.list();
  }

  get(name: string): DatasetRecord {
    const dataset = this.storage.registry.getByName(name);
    if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
    return dataset;
  }

  async create(name: string, input: DatasetInput, who: string): Promise<DatasetRecord> {
    const dataset = await this.storage.metastore.datasets.create({
      name,
      description: input.description ?? '',
      kind: input.kind ?? 'axiom:events:v1',
      who,
      retentionDays: input.retentionDays ?? 0,
      useRetentionPeriod: input.useRetentionPeriod ?? false,
    });
    this.storage.registry.put(dataset);
    return dataset;
  }

  async update(name: string, input: DatasetInput): Promise<DatasetRecord> {
    const current = this.get(name);
    const updated = await this.storage.metastore.datasets.update(current.id, {
      description: input.description,
      retentionDays: input.retentionDays,
      useRetentionPeriod: input.useRetentionPeriod,
    });
    this.storage.registry.put(updated);
    return updated;
  }

  async delete(name: string): Promise<void> {
    const dataset = this.get(name);
    await this.storage.lock.run(async () => {
      const blocks = await this.storage.metastore.blocks.deleteBlocksOfDataset(dataset.id);
      await this.storage.metastore.datasets.delete(dataset.id);
      this.storage.registry.remove(name);
      this.storage.blocks.dropDataset(dataset.id);
      this.storage.tail.dropDataset(dataset.id);
      for (const block of blocks) {
        this.storage.catalog.forgetBlock(block.objectKey);
        await this.storage.objects.delete(block.objectKey);
      }
      // Metrics datasets: series catalog, point blocks and tail (after the registry forgot the dataset).
      const metricBlocks = await this.storage.metrics.deleteDataset(dataset.id);
      this.logger.log(`deleted dataset "${name}" and its ${blocks.length + metricBlocks} blocks`);
    });
  }
}
