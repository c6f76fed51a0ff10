import type { DatasetRecord } from '@quarry/metastore';

/** v2 Dataset (api.md §2.1): the id is the name; keys limited to what strict clients accept. */
export function datasetV2(d: DatasetRecord) {
  return {
    id: d.name,
    name: d.name,
    description: d.description,
    who: d.who,
    created: d.createdAt,
    updatedAt: d.updatedAt,
    kind: d.kind,
    mapFields: d.mapFields ?? [],
    retentionDays: d.retentionDays,
    useRetentionPeriod: d.useRetentionPeriod,
  };
}

/** v1 DatasetSpec: `id, name, description, who, created` only. */
export function datasetV1(d: DatasetRecord) {
  return { id: d.name, name: d.name, description: d.description, who: d.who, created: d.createdAt };
}
