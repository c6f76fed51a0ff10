import { forbidden, invalid, notFound } from '@quarry/common';
import type { DatasetRecord } from '@quarry/metastore';
import { hasDatasetCapability, type DatasetCapability } from '../auth/capabilities';
import type { Principal } from '../auth/principal';
import type { Regions } from '../cluster/regions';
import type { DatasetRegistry } from '../storage/dataset-registry';

export const METRICS_DATASET_KIND = 'otel:metrics:v1';

/**
 * Resolves a dataset named by a metrics request: the caller needs the capability on it, it must exist,
 * it must be a metrics dataset (events and metrics are stored apart), and this region must store it
 * (metrics ingest and queries are edge endpoints: another region's dataset is a 421 saying where).
 */
export function metricsDataset(
  { registry, regions }: { registry: DatasetRegistry; regions: Regions },
  principal: Principal,
  name: string,
  capability: Extract<DatasetCapability, 'ingest' | 'query'>,
): DatasetRecord {
  const action = capability === 'ingest' ? 'create' : 'read';
  if (!hasDatasetCapability(principal.datasetCapabilities, name, capability, action)) {
    throw forbidden(`this token lacks the ${capability}|${action} capability on dataset "${name}"`, {
      code: 'auth_forbidden',
    });
  }
  const dataset = registry.getByName(name);
  if (!dataset) throw notFound(`dataset "${name}" not found`, { code: 'dataset_not_found' });
  if (dataset.kind !== METRICS_DATASET_KIND) {
    throw invalid(
      `dataset "${name}" is of kind "${dataset.kind}"; metrics need a dataset of kind "${METRICS_DATASET_KIND}"`,
      { code: 'dataset_not_metrics' },
    );
  }
  regions.assertLocal(dataset, capability === 'ingest' ? 'metrics' : 'metrics queries');
  return dataset;
}
