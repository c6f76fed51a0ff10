import { Inject, Injectable, Logger } from '@nestjs/common';
import { notFound } from '@quarry/common';
import type { DatasetRecord } from '@quarry/metastore';
import { type StorageRuntime, STORAGE_RUNTIME, VirtualFieldCache } from '@quarry/server';
import { releaseDatasetReferences } from './dataset-references';
import type { DatasetInput } from './dataset-validation';

/**
 * Dataset lifecycle. Deleting a dataset removes its blocks, its tail, its schema and the resources that
 * belong to it (docs/management.md).
 */
@Injectable()
export class DatasetsService {
  private readonly logger = new Logger('datasets');

  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly virtualFields: VirtualFieldCache,
  ) {}

  list(): DatasetRecord[] {
    return this.storage.registry.list();
  }

  get(name: string): DatasetRecord {
    const dataset = this.storage.registry.getByName(name);
    if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
    return dataset;
  }

  async create(name: string, input: DatasetInput, who: string): Promise<DatasetRecord> {
    const region = this.storage.regions.forNewDataset(input.edgeDeployment);
    const dataset = await this.storage.metastore.datasets.create({
      name,
      region,
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

  /**
   * Deletes the dataset, its blocks, tail and schema, and settles the resources that name it
   * (`releaseDatasetReferences`): the metastore rows change in one transaction, so a failure leaves the
   * dataset and everything that names it as they were.
   */
  async delete(name: string, who: string): Promise<void> {
    const dataset = this.get(name);
    await this.storage.lock.run(async () => {
      const { blocks, released } = await this.storage.metastore.transaction(async (tx) => {
        const blocks = await tx.blocks.deleteBlocksOfDataset(dataset.id);
        const released = await releaseDatasetReferences(tx, name, who);
        await tx.datasets.delete(dataset.id);
        return { blocks, released };
      });
      this.storage.registry.remove(name);
      this.storage.blocks.dropDataset(dataset.id);
      this.storage.tail.dropDataset(dataset.id);
      // Another region's objects are in its own store: its orphan sweep removes them once unreferenced.
      const local = this.storage.regions.isLocal(dataset);
      for (const block of blocks) {
        this.storage.catalog.forgetBlock(block.objectKey);
        if (local) await this.storage.objects.delete(block.objectKey);
      }
      // Metrics datasets: series catalog, point blocks and tail (after the registry forgot the dataset).
      const metricBlocks = await this.storage.metrics.deleteDataset(dataset.id);
      this.logger.log(
        `deleted dataset "${name}", its ${blocks.length + metricBlocks} blocks and ` +
          `${released.virtualFields} virtual fields; annotations: ${released.annotationsStripped} ` +
          `lost the dataset, ${released.annotationsDeleted} deleted`,
      );
    });
    await this.virtualFields.reload();
  }
}
