import type { DatasetRecord, Metastore } from '@quarry/metastore';

/**
 * Datasets by name and by incarnation id, mirrored from the metastore so the ingest hot path and the
 * compactor resolve names without a database round trip. Every change goes through the metastore first.
 */
export class DatasetRegistry {
  private readonly byName = new Map<string, DatasetRecord>();
  private readonly byId = new Map<string, DatasetRecord>();

  static async load(metastore: Metastore): Promise<DatasetRegistry> {
    const registry = new DatasetRegistry();
    for (const dataset of await metastore.datasets.list()) registry.put(dataset);
    return registry;
  }

  put(dataset: DatasetRecord): void {
    const previous = this.byName.get(dataset.name);
    if (previous) this.byId.delete(previous.id);
    this.byName.set(dataset.name, dataset);
    this.byId.set(dataset.id, dataset);
  }

  /** Replaces every entry (a cluster node's catalog refresh). */
  replaceAll(datasets: readonly DatasetRecord[]): void {
    this.byName.clear();
    this.byId.clear();
    for (const dataset of datasets) this.put(dataset);
  }

  remove(name: string): void {
    const dataset = this.byName.get(name);
    if (!dataset) return;
    this.byName.delete(name);
    this.byId.delete(dataset.id);
  }

  getByName(name: string): DatasetRecord | undefined {
    return this.byName.get(name);
  }

  getById(id: string): DatasetRecord | undefined {
    return this.byId.get(id);
  }

  list(): DatasetRecord[] {
    return [...this.byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
