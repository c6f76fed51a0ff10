import { Inject, Injectable } from '@nestjs/common';
import { invalid, isQuarryError, notFound, prefixedId } from '@quarry/common';
import { resourceNotFound, type ResourceRecord } from '@quarry/metastore';
import { validateVirtualField } from '@quarry/query';
import { type Principal, type StorageRuntime, STORAGE_RUNTIME, VirtualFieldCache } from '@quarry/server';
import { requireDatasetCapability } from './dataset-capability';
import {
  parseVirtualField,
  virtualFieldKey,
  type VirtualFieldDocument,
  type VirtualFieldInput,
} from './vfields.input';

type VirtualFieldRecord = ResourceRecord<VirtualFieldDocument>;

/**
 * Virtual fields (`/v2/vfields`): named APL expressions a query on the dataset reads like stored fields.
 * Every operation needs the virtualFields capability on the field's dataset.
 */
@Injectable()
export class VirtualFieldsService {
  constructor(
    @Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime,
    private readonly cache: VirtualFieldCache,
  ) {}

  async list(dataset: string, principal: Principal): Promise<VirtualFieldRecord[]> {
    requireDatasetCapability(principal, [dataset], 'virtualFields', 'read');
    const records = await this.storage.metastore.resources.list<VirtualFieldDocument>('vfield', {
      datasets: [dataset],
    });
    return records.filter((r) => this.isCurrent(r));
  }

  async get(id: string, principal: Principal): Promise<VirtualFieldRecord> {
    const record = await this.find(id);
    requireDatasetCapability(principal, record.datasets, 'virtualFields', 'read');
    return record;
  }

  async create(body: Record<string, unknown>, principal: Principal): Promise<VirtualFieldRecord> {
    const input = parseVirtualField(body);
    requireDatasetCapability(principal, [input.dataset], 'virtualFields', 'create');
    const doc = this.resolve(input);
    const record = await this.storage.metastore.resources.create(
      'vfield',
      prefixedId('vfd_'),
      { naturalKey: virtualFieldKey(doc), datasets: [doc.dataset], document: doc },
      principal.userId,
    );
    await this.cache.reload();
    return record;
  }

  async update(id: string, body: Record<string, unknown>, principal: Principal): Promise<VirtualFieldRecord> {
    const current = await this.find(id);
    requireDatasetCapability(principal, current.datasets, 'virtualFields', 'update');
    const input = parseVirtualField(body);
    requireDatasetCapability(principal, [input.dataset], 'virtualFields', 'update');
    const doc = this.resolve(input);
    const record = await this.storage.metastore.resources.replace(
      'vfield',
      id,
      { naturalKey: virtualFieldKey(doc), datasets: [doc.dataset], document: doc },
      principal.userId,
    );
    await this.cache.reload();
    return record;
  }

  async delete(id: string, principal: Principal): Promise<void> {
    const current = await this.find(id);
    requireDatasetCapability(principal, current.datasets, 'virtualFields', 'delete');
    await this.storage.metastore.resources.delete('vfield', id);
    await this.cache.reload();
  }

  private async find(id: string): Promise<VirtualFieldRecord> {
    const record = await this.storage.metastore.resources.get<VirtualFieldDocument>('vfield', id);
    if (!record || !this.isCurrent(record)) throw resourceNotFound('vfield', id);
    return record;
  }

  /**
   * False for a field of a dataset that was deleted (and maybe created again since). Deleting a dataset
   * deletes its fields now, but rows left by earlier versions, which did not, must not reach a namesake.
   */
  private isCurrent(record: VirtualFieldRecord): boolean {
    return this.storage.registry.getByName(record.document.dataset)?.id === record.document.datasetId;
  }

  /** The dataset must exist and the expression must parse and bind (throws `invalid`). */
  private resolve(input: VirtualFieldInput): VirtualFieldDocument {
    const dataset = this.storage.registry.getByName(input.dataset);
    if (!dataset) throw notFound(`dataset "${input.dataset}" not found`, { code: 'dataset_not_found' });
    try {
      validateVirtualField(input.dataset, { name: input.name, expression: input.expression });
    } catch (err) {
      if (!isQuarryError(err) || err.kind !== 'invalid') throw err;
      throw invalid(`invalid virtual field: "expression" ${err.message}`, { code: 'vfield_invalid' });
    }
    return { ...input, datasetId: dataset.id };
  }
}
