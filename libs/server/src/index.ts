// The node runtime every role runs on: configuration, storage (both shapes), auth, health and metrics,
// the app bootstrap. The HTTP surface of each role lives in its own lib (ingest-node, query-node,
// management-node) and is handed to `startQuarry` by the app that runs it.
export * from './config/config';
export * from './quarry-app';
export * from './role-main';
export * from './auth/capabilities';
export type { BootstrapResult } from './auth/bootstrap';
export { Access, type AccessRule } from './auth/access.decorator';
export { principalOf } from './auth/auth.guard';
export { AuthService } from './auth/auth.service';
export type { Principal } from './auth/principal';
export { assertGrantable } from './auth/grants';
export { builtInRoleCapabilities, roleCapabilities, unionCapabilities } from './auth/role-capabilities';
export { QuarryMetrics, outcomeOf } from './observability/metrics';
export { StorageRuntime } from './storage/storage-runtime';
export { STORAGE_RUNTIME, QUARRY_CONFIG } from './storage/tokens';
export { mergeTailFields } from './storage/storage-catalog';
export { KIND_FIELD_TYPES, withKindFieldTypes } from './storage/kind-field-types';
export type { IngestBodyOptions } from './workers/cpu-tasks';
export { EventsReadYourWrites, MetricsReadYourWrites } from './cluster/read-your-writes.guard';
export { VirtualFieldCache, type CachedVirtualField } from './catalog/vfields.cache';
export { metricsDataset, METRICS_DATASET_KIND } from './metrics/metrics-datasets';
export { Membership, CLUSTER_RPC_VERSION, QUARRY_VERSION } from './cluster/membership';
export {
  assertClusterCaller,
  decodeRpc,
  encodeRpc,
  RPC_CONTENT_TYPE,
  AGGREGATE_PATH,
  ROWS_PATH,
  type AggregateShareRequest,
  type AggregateShareResponse,
  type RowsShareRequest,
  type RowsShareResponse,
  type MplShareRequest,
  type MplShareResponse,
} from './cluster/query-rpc';
export type { MplQueryRequest } from './cluster/cluster-mpl-offload';
export { ownerOf, rankOf } from './cluster/partition-ownership';
export { Regions, type RegionalDataset } from './cluster/regions';
