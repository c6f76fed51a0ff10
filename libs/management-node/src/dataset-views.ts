import type { DatasetRecord } from '@quarry/metastore';
import type { Regions } from '@quarry/server';

/**
 * v2 Dataset (api.md §2.1): the id is the name; keys limited to what strict clients accept. The region
 * it lives in is Axiom's `edgeDeployment`, with the region's public URL when the installation lists it.
 */
export function datasetV2(d: DatasetRecord, regions: Regions) {
  const region = regions.regionOf(d);
  const url = regions.urlOf(region);
  return {
    id: d.name,
    name: d.name,
    description: d.description,
    who: d.who,
    created: d.createdAt,
    updatedAt: d.updatedAt,
    kind: d.kind,
    edgeDeployment: region,
    ...(url !== undefined ? { edgeDeploymentUrl: url } : {}),
    mapFields: d.mapFields ?? [],
    retentionDays: d.retentionDays,
    useRetentionPeriod: d.useRetentionPeriod,
  };
}

/** v1 DatasetSpec: `id, name, description, who, created` only. */
export function datasetV1(d: DatasetRecord) {
  return { id: d.name, name: d.name, description: d.description, who: d.who, created: d.createdAt };
}
