export * from './constants';
export * from './resources';
export * from './clock';
export * from './duration';
export * from './conditions';
export * from './status-equality';
export * from './reconcile-result';
export * from './management-api.port';
export {
  HttpManagementApi,
  retryAfterMs,
  type HttpManagementApiOptions,
} from './http-management-api.adapter';
export * from './kube-objects.port';
export * from './connection-resolver';
export * from './error-outcome';
export * from './capabilities';
export * from './dataset-desired';
export * from './role-desired';
export * from './token-desired';
export * from './token-rotation';
export * from './token-secret';
export { claimedNameOf, olderClaimant } from './name-claims';
export { NameIndex } from './name-index';
export {
  resyncConnection,
  unsettled,
  datasetDrift,
  roleDrift,
  tokenDrift,
  type ResyncReport,
  type ResyncTarget,
} from './resync-scan';
export * from './managed-reconcile';
export { DatasetHandler, datasetReconciler } from './dataset-reconciler';
export { RoleHandler, roleReconciler, roleIdOf } from './role-reconciler';
export { TokenHandler, tokenReconciler, tokenIdOf } from './token-reconciler';
export { mergePatchFor } from './merge-patch';
export { ConnectionReconciler, type ConnectionReconcilerDeps } from './connection-reconciler';
export {
  KubeObjectsAdapter,
  type KubeObjectsAdapterOptions,
  type ObjectCache,
  type ObjectCaches,
} from './kube-objects.adapter';
