import type { DatasetFieldRecord } from '@quarry/metastore';
import { mergeTailFields, withKindFieldTypes, type StorageRuntime } from '@quarry/server';

/**
 * A dataset's fields as `/v2/datasets/{id}/fields` lists them: the metastore's field table (filled by the
 * compactor, and holding the unit, description and hidden flag users set) merged with the fields of the
 * tail not compacted yet, so a field shows up right after the ingest that introduced it. A field only the
 * tail has yet gets empty metadata; its type is the union of every type seen, as a query reports it, or
 * the type the dataset's kind declares (an OpenTelemetry trace dataset's `duration` is a timespan).
 */
export async function listDatasetFields(
  storage: StorageRuntime,
  datasetId: string,
  /** False: the types as stored, without the kind's declarations (what the field table holds). */
  declared = true,
): Promise<DatasetFieldRecord[]> {
  // The tail first: the compactor merges a block's fields into the table before it drops the block's
  // records from the tail, so a field is in this snapshot or already in the table read after it.
  const tail = storage.tail.snapshot(datasetId);
  const stored = await storage.metastore.datasets.listFields(datasetId);
  const metadata = new Map(stored.map((f) => [f.name, f]));
  const kind = declared ? storage.registry.getById(datasetId)?.kind : undefined;
  return withKindFieldTypes(mergeTailFields(stored, tail), kind).map(({ name, type }) => ({
    name,
    type,
    unit: metadata.get(name)?.unit ?? '',
    description: metadata.get(name)?.description ?? '',
    hidden: metadata.get(name)?.hidden ?? false,
  }));
}

/**
 * Makes sure a listed field has its row in the field table, so its metadata can be set before the
 * compactor got to it. Merging is what the compactor does with the same types, so it stays idempotent.
 */
export async function storeListedField(
  storage: StorageRuntime,
  datasetId: string,
  field: DatasetFieldRecord,
): Promise<void> {
  // The stored type (what the compactor records), not the one the dataset's kind declares.
  const stored = (await listDatasetFields(storage, datasetId, false)).find((f) => f.name === field.name);
  await storage.metastore.datasets.mergeFields(datasetId, [
    { name: field.name, type: stored?.type ?? field.type },
  ]);
  // The query schema caches stored types until blocks change; this one changed without a block.
  storage.catalog.forgetFields(datasetId);
}
