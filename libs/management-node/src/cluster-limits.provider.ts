import { clusterLimitsProvider } from '@quarry/nest-kit';
import { STORAGE_RUNTIME, type StorageRuntime } from '@quarry/server';

/**
 * Cluster shape: the per-token rate limit and quotas of this role are counted for the whole region,
 * through the metastore's shared counters (docs/reliability.md, "Limits in a cluster"); the standalone
 * server keeps them in memory.
 */
export const CLUSTER_LIMITS = clusterLimitsProvider(STORAGE_RUNTIME, (storage: StorageRuntime) =>
  storage.shape === 'cluster' ? storage.metastore.admissionCounters : null,
);
