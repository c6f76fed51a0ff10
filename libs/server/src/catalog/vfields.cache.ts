import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { VirtualField, VirtualFieldLookup } from '@quarry/query';
import type { StorageRuntime } from '../storage/storage-runtime';
import { STORAGE_RUNTIME } from '../storage/tokens';

/** A stored virtual field (`/v2/vfields`): what the cache reads of the management node's documents. */
export interface CachedVirtualField extends Record<string, unknown> {
  dataset: string;
  name: string;
  expression: string;
  /** The incarnation of the dataset it was defined on. */
  datasetId: string;
}

/**
 * Every dataset's virtual fields in memory, because the query engine looks them up synchronously while it
 * binds a query. The vfields service reloads it after each change in this process; a copy older than
 * MAX_AGE_MS is reloaded before a query, so changes made by another process (cluster roles) show up too.
 */
const MAX_AGE_MS = 5_000;

@Injectable()
export class VirtualFieldCache implements OnModuleInit {
  private byDataset = new Map<string, (VirtualField & { datasetId: string })[]>();
  private loadedAtMs = Number.NEGATIVE_INFINITY;
  /** Reloads may overlap; only a reload that started later than the applied one may replace it. */
  private started = 0;
  private applied = 0;

  constructor(@Inject(STORAGE_RUNTIME) private readonly storage: StorageRuntime) {}

  async onModuleInit(): Promise<void> {
    await this.reload();
  }

  /** Fields defined on the current incarnation of the dataset only (not on a deleted namesake). */
  readonly lookup: VirtualFieldLookup = (dataset) => {
    const fields = this.byDataset.get(dataset);
    if (!fields) return [];
    const current = this.storage.registry.getByName(dataset)?.id;
    return fields.filter((f) => f.datasetId === current);
  };

  /** The lookup, reloaded first when the in-memory copy may be stale. */
  async current(): Promise<VirtualFieldLookup> {
    if (Date.now() - this.loadedAtMs > MAX_AGE_MS) await this.reload();
    return this.lookup;
  }

  async reload(): Promise<void> {
    const sequence = ++this.started;
    const startedAt = Date.now();
    const records = await this.storage.metastore.resources.list<CachedVirtualField>('vfield');
    if (sequence < this.applied) return;
    const byDataset = new Map<string, (VirtualField & { datasetId: string })[]>();
    for (const { document } of records) {
      const fields = byDataset.get(document.dataset) ?? [];
      fields.push({ name: document.name, expression: document.expression, datasetId: document.datasetId });
      byDataset.set(document.dataset, fields);
    }
    this.byDataset = byDataset;
    this.applied = sequence;
    this.loadedAtMs = startedAt;
  }
}
