import { Inject, Injectable } from '@nestjs/common';
import { prefixedId } from '@quarry/common';
import { resourceNotFound, type ResourceRecord } from '@quarry/metastore';
import { type StorageRuntime, STORAGE_RUNTIME } from '@quarry/server';
import { parseView, type ViewDocument } from './views.input';

type ViewRecord = ResourceRecord<ViewDocument>;

/**
 * Views (`/v2/views`): named APL queries shared in the org. Stored only: Axiom's documentation does not
 * describe querying a view by name, so a view is not a query source here (docs/management.md).
 */
@Injectable()
export class ViewsService {
  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  list(): Promise<ViewRecord[]> {
    return this.storage.metastore.resources.list<ViewDocument>('view');
  }

  async get(id: string): Promise<ViewRecord> {
    const record = await this.storage.metastore.resources.get<ViewDocument>('view', id);
    if (!record) throw resourceNotFound('view', id);
    return record;
  }

  create(body: Record<string, unknown>, who: string): Promise<ViewRecord> {
    const doc = parseView(body);
    return this.storage.metastore.resources.create(
      'view',
      prefixedId('view_'),
      { naturalKey: doc.name, datasets: doc.datasets, document: doc },
      who,
    );
  }

  update(id: string, body: Record<string, unknown>, who: string): Promise<ViewRecord> {
    const doc = parseView(body);
    return this.storage.metastore.resources.replace(
      'view',
      id,
      { naturalKey: doc.name, datasets: doc.datasets, document: doc },
      who,
    );
  }

  async delete(id: string): Promise<void> {
    await this.storage.metastore.resources.delete('view', id);
  }
}
